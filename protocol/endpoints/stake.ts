import * as z from "zod";
import { define, intString } from "../endpoint";
import { coinField, idempotencyKeyField as idempotencyKey, positiveDecimalField } from "../fields";
import { unsignedDecimalString } from "../money";
import { pageOf } from "./order-history";

/**
 * Staking (issue 32, decision 052; spec §2 `/finance/investment`, §7 "Staking (own prefix; prefix
 * not shown)"). The spec names the calls but not their prefix nor shapes: ours are under `earn/`
 * (`earn/stake/list`, `earn/stake/{id}`, `earn/stake/listStake`, the member's stakes, invest,
 * apply, `earn/outstanding-repayment`, `earn/records/list`). Amounts are decimal texts in their coin;
 * rates decimal fractions a year (simple interest).
 */

const productIdField = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "must be a product id such as USDT-30");
const stakeIdField = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "must be a stake id");
const pageNo = intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less"));
const pageSize = intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less"));
export const STAKE_TERMS = [0, 7, 30, 90] as const;

/** One staking product as members see it, with how much of its cap is taken. */
export const stakeProductSchema = z.object({
  productId: z.string(),
  coin: z.string(),
  /** Days until maturity; 0: flexible. */
  termDays: z.number().int(),
  yearlyRate: z.string(),
  /** What a year's rate gives a day (a 365-day year). */
  dailyRate: z.string(),
  cap: unsignedDecimalString,
  staked: unsignedDecimalString,
  /** What is left of the cap. */
  available: unsignedDecimalString,
  minAmount: unsignedDecimalString,
  maxPerMember: unsignedDecimalString,
  enabled: z.boolean(),
});
export type StakeProductView = z.infer<typeof stakeProductSchema>;

/** A coin's staking at a glance: its products' best rate and terms (the page's coin list). */
export const stakeCoinSchema = z.object({ coin: z.string(), bestYearlyRate: z.string(), terms: z.array(z.number().int()) });

export const STAKE_STATUSES = ["running", "redeemed", "matured", "early"] as const;

/** One of the member's stakes, running or ended. */
export const stakeSchema = z.object({
  stakeId: z.string(),
  productId: z.string(),
  coin: z.string(),
  termDays: z.number().int(),
  /** The yearly rate it was taken at. */
  rate: z.string(),
  principal: unsignedDecimalString,
  /** Running: its interest so far (credited, and since the last day credited); ended: the interest it paid. */
  interest: unsignedDecimalString,
  /** A fixed stake's interest over its whole term (what maturity pays on top of the principal); null flexible. */
  termInterest: unsignedDecimalString.nullable(),
  /** An early redemption's interest given up; "0" otherwise. */
  forfeited: unsignedDecimalString,
  status: z.enum(STAKE_STATUSES),
  createdAt: z.string(),
  maturesAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type StakeView = z.infer<typeof stakeSchema>;

/** What redeeming a stake now would pay: its principal (all of it, or `amount` of a flexible one), its interest, what an early redemption forfeits. */
export const stakeRedemptionSchema = z.object({
  stakeId: z.string(),
  coin: z.string(),
  principal: unsignedDecimalString,
  interest: unsignedDecimalString,
  forfeited: unsignedDecimalString,
  /** Principal and interest, to the funding account. */
  payout: unsignedDecimalString,
  early: z.boolean(),
  closes: z.boolean(),
});
export type StakeRedemption = z.infer<typeof stakeRedemptionSchema>;

/** The member's outstanding repayments: per coin, what their running stakes will pay back (principal and interest so far). */
export const outstandingSchema = z.object({
  coins: z.array(z.object({ coin: z.string(), principal: unsignedDecimalString, interest: unsignedDecimalString, stakes: z.number().int() })),
  /** The next fixed stakes to mature, soonest first (at most 20). */
  maturing: z.array(stakeSchema),
});

export const STAKE_RECORD_KINDS = ["invest", "redeemed", "matured", "early"] as const;

/** One fact of a stake: staked, redeemed (a flexible one, in part or whole), matured, redeemed early. */
export const stakeRecordSchema = z.object({
  id: z.string(),
  stakeId: z.string(),
  productId: z.string(),
  kind: z.enum(STAKE_RECORD_KINDS),
  coin: z.string(),
  principal: unsignedDecimalString,
  interest: unsignedDecimalString,
  forfeited: unsignedDecimalString,
  createdAt: z.string(),
});
export type StakeRecordView = z.infer<typeof stakeRecordSchema>;

/** An operator's product: the yearly rate a fraction (at most 0.18), amounts in the coin. */
export const stakeProductRulesSchema = z.object({
  productId: productIdField,
  coin: coinField,
  termDays: z.coerce.number().int("must be a whole number"),
  yearlyRate: z.string().regex(/^0?\.\d{1,6}$|^0$/, "must be a fraction such as 0.05"),
  cap: positiveDecimalField,
  minAmount: positiveDecimalField,
  maxPerMember: positiveDecimalField,
  enabled: z.boolean(),
});

export const stakeEndpoints = {
  /** The staking products on offer (enabled ones), of one coin or all, with what is left of their caps: anyone may read them. */
  stakeProducts: define({
    method: "GET",
    path: "earn/stake/list",
    query: z.object({ coin: coinField.optional() }),
    response: z.array(stakeProductSchema),
  }),
  /** Each coin's staking at a glance. */
  stakeCoins: define({
    method: "GET",
    path: "earn/stake/listStake",
    response: z.array(stakeCoinSchema),
  }),
  /** The member's stakes: `running`, or `ended` (redeemed, matured, early), newest first. */
  memberStakes: define({
    method: "GET",
    path: "earn/stake/member/:status/:pageNo/:pageSize",
    params: z.object({ status: z.enum(["running", "ended"], { message: "must be running or ended" }), pageNo, pageSize }),
    query: z.object({ coin: coinField.optional() }),
    response: pageOf(stakeSchema),
  }),
  /** What redeeming one of the member's stakes now would pay (shown before the member confirms). */
  stakePreview: define({
    method: "GET",
    path: "earn/stake/preview/:stakeId",
    params: z.object({ stakeId: stakeIdField }),
    query: z.object({ amount: positiveDecimalField.optional() }),
    response: stakeRedemptionSchema,
  }),
  /** A new stake from the member's funding account. */
  stakeInvest: define({
    method: "POST",
    path: "earn/stake/invest",
    body: z.object({ productId: productIdField, amount: positiveDecimalField, idempotencyKey }),
    response: stakeSchema,
  }),
  /** A redemption ("apply"): part of a flexible stake (`amount`), or a whole stake; a fixed one before maturity forfeits its interest. */
  stakeApply: define({
    method: "POST",
    path: "earn/stake/apply",
    body: z.object({ stakeId: stakeIdField, amount: positiveDecimalField.optional(), idempotencyKey }),
    response: stakeRedemptionSchema,
  }),
  /** The member's outstanding repayments (spec `outstanding-repayment`). */
  stakeOutstanding: define({
    method: "GET",
    path: "earn/outstanding-repayment",
    response: outstandingSchema,
  }),
  /** The member's staking records, newest first, of one kind or coin or all. */
  stakeRecords: define({
    method: "GET",
    path: "earn/records/list/:pageNo/:pageSize",
    params: z.object({ pageNo, pageSize }),
    query: z.object({
      kind: z.enum(STAKE_RECORD_KINDS, { message: `must be one of ${STAKE_RECORD_KINDS.join(", ")}` }).optional(),
      coin: coinField.optional(),
    }),
    response: pageOf(stakeRecordSchema),
  }),
  /** One staking product (spec `stake/{id}`); a disabled one too, said so. Listed after the fixed paths it would shadow. */
  stakeProduct: define({
    method: "GET",
    path: "earn/stake/:productId",
    params: z.object({ productId: productIdField }),
    response: stakeProductSchema,
  }),
  /** Operator call: every product, enabled or not, with what is staked in it now. */
  opsStakeProducts: define({
    method: "GET",
    path: "/admin/stake/products",
    operator: "markets.read",
    absolute: true,
    response: z.array(stakeProductSchema.extend({ runningStakes: z.number().int() })),
  }),
  /** Operator call: a product, new or changed (its coin and term never change; the rate at most 0.18). */
  adminStakeProduct: define({
    method: "POST",
    path: "/admin/stake/product",
    operator: "markets.change",
    absolute: true,
    body: stakeProductRulesSchema,
    response: stakeProductSchema,
  }),
} as const;
