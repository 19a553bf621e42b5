import * as z from "zod";
import { define, intString } from "../endpoint";
import { coinField, dayField, idempotencyKeyField as idempotencyKey, positiveDecimalField, slashSymbolField as symbolField } from "../fields";
import { unsignedDecimalString } from "../money";
import { pageOf } from "./order-history";

/**
 * Margin trading (issue 31, spec §7 "Wallet and margin"; decision 050). `all` is cross margin (one
 * account over every coin of the margin pairs, leverage 3), `fixed` an isolated account of one
 * symbol (`symbolName`, leverage 2 to the pair's maximum). Amounts are decimal texts in the coin;
 * values (assets, debts) in USDT; rates decimal fractions per hour, day and year (simple interest).
 * The spec shows no result shapes: these are ours.
 */
export const MARGIN_MODES = ["all", "fixed"] as const;
export type MarginMode = (typeof MARGIN_MODES)[number];
const modeField = z.enum(MARGIN_MODES, { message: "must be all or fixed" });

/** A coin of a margin account; `symbolName` names the isolated account (needed with `fixed`, refused with `all`). */
const scoped = <T extends z.ZodRawShape>(fields: T) => z.object({ coin: coinField, symbolName: symbolField.optional(), ...fields });

/** One coin of a margin account. */
export const marginCoinSchema = z.object({
  coin: z.string(),
  /** Held in the account (orders' holds included). */
  balance: unsignedDecimalString,
  available: unsignedDecimalString,
  /** Principal owed. */
  borrowed: unsignedDecimalString,
  /** Interest owed (charged by the hour begun). */
  interest: unsignedDecimalString,
  /** Principal and interest: what repaying in full takes. */
  owed: unsignedDecimalString,
  /** What the member may borrow of it now (null: the coin has no price, or no pool lends it). */
  canBorrow: unsignedDecimalString.nullable(),
});

/** A margin account: cross ("all", `symbolName` null) or one isolated symbol. */
export const marginAccountSchema = z.object({
  mode: modeField,
  symbolName: z.string().nullable(),
  leverage: z.number().int(),
  /** The most an isolated account's leverage may be set to (cross: 3). */
  maxLeverage: z.number().int(),
  /** Assets and debts (principal and interest) valued in USDT at the coins' last prices. */
  assetsValue: unsignedDecimalString,
  debtsValue: unsignedDecimalString,
  /** Assets ÷ debts, two decimals, rounded down; null without debt. */
  marginLevel: z.string().nullable(),
  /** The account's level fell below the warning line and has not recovered. */
  warned: z.boolean(),
  warningLevel: z.string(),
  liquidationLevel: z.string(),
  /** Funds leave only while the level stays at this or above. */
  transferOutLevel: z.string(),
  coins: z.array(marginCoinSchema),
});
export type MarginAccountView = z.infer<typeof marginAccountSchema>;

/** A lending pool's coin and rates. */
export const marginRateSchema = z.object({
  coin: z.string(),
  hourlyRate: z.string(),
  dailyRate: z.string(),
  yearlyRate: z.string(),
  minBorrow: unsignedDecimalString,
  /** What the pool can still lend. */
  available: unsignedDecimalString,
});

export const marginPairSchema = z.object({ symbolName: z.string(), base: z.string(), quote: z.string(), maxLeverage: z.number().int() });
export type MarginPairView = z.infer<typeof marginPairSchema>;

/** One borrow, repayment, interest charge or transfer. */
export const marginRecordSchema = z.object({
  id: z.string(),
  mode: modeField,
  symbolName: z.string().nullable(),
  coin: z.string(),
  /** `writeoff`: what a liquidation's sales could not repay, taken by the margin insurance and the pool. */
  kind: z.enum(["borrow", "repay", "interest", "in", "out", "writeoff"]),
  amount: unsignedDecimalString,
  principal: unsignedDecimalString,
  interest: unsignedDecimalString,
  createdAt: z.string(),
});
export type MarginRecordView = z.infer<typeof marginRecordSchema>;

const recordFilterFields = {
  symbolName: symbolField.optional(),
  coin: coinField.optional(),
  kind: z.enum(["borrow", "repay", "interest", "in", "out", "writeoff"], { message: "must be borrow, repay, interest, in, out or writeoff" }).optional(),
  /** First and last day (UTC) of the range, inclusive. */
  from: dayField.optional(),
  to: dayField.optional(),
};
const rangeInOrder = (v: { from?: string; to?: string }) => !v.from || !v.to || v.from <= v.to;
const rangeMessage = { path: ["to"], message: "must not be before from" };

/** The filter of a member's margin records. */
export const marginRecordFilterSchema = z.object(recordFilterFields).refine(rangeInOrder, rangeMessage);
export const marginRecordExportSchema = z.object({ mode: modeField, ...recordFilterFields }).refine(rangeInOrder, rangeMessage);

/** A lending pool as operators see it: its rates, limit, what it lends, what it earned, its insurance. */
const marginPoolSchema = marginRateSchema.extend({
  limit: unsignedDecimalString,
  lent: unsignedDecimalString,
  earned: z.string(),
  insurance: unsignedDecimalString,
});

const pageNo = intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less"));
const pageSize = intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less"));

export const marginEndpoints = {
  /** The member's margin accounts: cross, and each isolated symbol (spec §7 `marginProperty`). */
  marginProperty: define({
    method: "GET",
    path: "coin/wallet/marginProperty",
    response: z.object({ cross: marginAccountSchema, isolated: z.array(marginAccountSchema) }),
  }),
  /** One margin account: `all`, or `fixed` with a symbol (BTC_USDT) (spec §7 `coin/wallet/get/{a}/{b}`). */
  marginAccount: define({
    method: "GET",
    path: "coin/wallet/get/:mode/:symbol",
    params: z.object({ mode: modeField, symbol: z.union([z.literal("all"), symbolField]) }),
    response: marginAccountSchema,
  }),
  /** The symbols tradable on margin, with their highest isolated leverage (spec §7 `getCanborrowList`). */
  marginPairs: define({
    method: "GET",
    path: "coin/wallet/getCanborrowList",
    response: z.object({ crossLeverage: z.number().int(), pairs: z.array(marginPairSchema) }),
  }),
  /** The lending pools' rates (spec §7 `getDepositRate`). */
  marginRates: define({
    method: "GET",
    path: "coin/wallet/getDepositRate",
    response: z.array(marginRateSchema),
  }),
  /** How much of a coin the member may borrow into an account now (spec §7 `getCanborrow`). */
  canBorrow: define({
    method: "POST",
    path: "coin/wallet/:mode/getCanborrow",
    params: z.object({ mode: modeField }),
    body: scoped({}),
    response: z.object({ coin: z.string(), canBorrow: unsignedDecimalString, hourlyRate: z.string() }),
  }),
  /** What a borrow would cost before it is made: the first hour's interest (charged at once), a day's, and the level after (spec §7 `preborrow`). */
  preBorrow: define({
    method: "POST",
    path: "coin/wallet/:mode/preborrow",
    params: z.object({ mode: modeField }),
    body: scoped({ amount: positiveDecimalField }),
    response: z.object({
      coin: z.string(),
      amount: unsignedDecimalString,
      canBorrow: unsignedDecimalString,
      hourlyRate: z.string(),
      firstHourInterest: unsignedDecimalString,
      dailyInterest: unsignedDecimalString,
      marginLevelAfter: z.string().nullable(),
    }),
  }),
  /** Borrows a coin into a margin account; a retry with the key borrows nothing again (spec §7 `borrow`). */
  borrow: define({
    method: "POST",
    path: "coin/wallet/:mode/borrow",
    params: z.object({ mode: modeField }),
    body: scoped({ amount: positiveDecimalField, idempotencyKey }),
    response: marginAccountSchema,
  }),
  /** Pays back a coin owed in a margin account from that account: interest first (spec §7 `coin/wallet/still/{all|fixed}`). */
  repay: define({
    method: "POST",
    path: "coin/wallet/still/:mode",
    params: z.object({ mode: modeField }),
    body: scoped({ amount: positiveDecimalField, idempotencyKey }),
    response: marginAccountSchema,
  }),
  /** Funds between the funding account and a margin account (not in the spec, whose transfer names no isolated symbol). */
  marginTransfer: define({
    method: "POST",
    path: "coin/wallet/:mode/transfer",
    params: z.object({ mode: modeField }),
    body: scoped({ amount: positiveDecimalField, direction: z.enum(["in", "out"], { message: "must be in or out" }), idempotencyKey }),
    response: marginAccountSchema,
  }),
  /** An isolated account's leverage (spec §7 `fixed/updateLeverageRadio`). */
  updateMarginLeverage: define({
    method: "POST",
    path: "coin/wallet/fixed/updateLeverageRadio",
    body: z.object({
      symbolName: symbolField,
      leverage: z.coerce.number().int("must be a whole number").min(2, "must be 2 or more").max(10, "must be 10 or less"),
      idempotencyKey,
    }),
    response: marginAccountSchema,
  }),
  /** The member's borrows, repayments, interest and transfers, newest first (spec §7 `borrowOrder/{a}/{b}/{c}`: mode, page, size). */
  marginRecords: define({
    method: "GET",
    path: "coin/entrust/borrowOrder/:mode/:pageNo/:pageSize",
    params: z.object({ mode: modeField, pageNo, pageSize }),
    query: marginRecordFilterSchema,
    response: pageOf(marginRecordSchema),
  }),
  /**
   * CSV download of the member's margin records of one mode for a filter (the orders area's
   * margin pages; not in the spec). A success is `text/csv` as an attachment, a refusal an
   * envelope; more than EXPORT_MAX_ROWS rows is refused.
   */
  exportMarginRecords: define({
    method: "POST",
    path: "coin/entrust/exportBorrowOrder",
    body: marginRecordExportSchema,
    response: z.string(),
  }),
  /**
   * Operator call (not in the spec): the lending pools with what they lend and have earned (the
   * console, the CLI).
   */
  opsMarginPools: define({
    method: "GET",
    path: "/admin/margin/pools",
    operator: "markets.read",
    absolute: true,
    response: z.array(marginPoolSchema),
  }),
  /**
   * Operator call (not in the spec): trading fees of a coin moved into its margin insurance, what
   * covers a liquidation's shortfall before the pool does; once per key, audited.
   */
  adminMarginInsurance: define({
    method: "POST",
    path: "/admin/margin/insurance",
    operator: "markets.change",
    absolute: true,
    body: z.object({ coin: coinField, amount: positiveDecimalField, idempotencyKey }),
    response: marginPoolSchema,
  }),
  /** Operator call (not in the spec): a pool's hourly rate (a fraction, at most 0.01), its lending limit or its smallest borrow. */
  adminMarginPool: define({
    method: "POST",
    path: "/admin/margin/pool",
    operator: "markets.change",
    absolute: true,
    body: z
      .object({
        coin: coinField,
        hourlyRate: z
          .string()
          .regex(/^0(\.\d{1,12})?$/, "must be a fraction such as 0.00001")
          .optional(),
        limit: unsignedDecimalString.optional(),
        minBorrow: positiveDecimalField.optional(),
      })
      .refine((b) => b.hourlyRate !== undefined || b.limit !== undefined || b.minBorrow !== undefined, "give hourlyRate, limit or minBorrow"),
    response: marginRateSchema.extend({ limit: unsignedDecimalString, lent: unsignedDecimalString, earned: z.string() }),
  }),
  /**
   * Operator call (not in the spec): a spot market put on margin, or its highest isolated leverage
   * changed (a whole number from 2 to 10); answers the margin pairs as they stand. Audited.
   */
  adminMarginPair: define({
    method: "POST",
    path: "/admin/margin/pair",
    operator: "markets.change",
    absolute: true,
    body: z.object({
      symbolName: symbolField,
      maxLeverage: z.coerce.number().int("must be a whole number").min(2, "must be 2 to 10").max(10, "must be 2 to 10"),
    }),
    response: z.array(marginPairSchema),
  }),
};
