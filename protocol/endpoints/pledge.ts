import * as z from "zod";
import { define, intString } from "../endpoint";
import { coinField, idempotencyKeyField as idempotencyKey, positiveDecimalField } from "../fields";
import { unsignedDecimalString } from "../money";
import { pageOf } from "./order-history";

/**
 * Crypto loans against collateral (issue 31, decision 051; spec §2 `/pledge-loan`, `/my-loan`,
 * `/borrowings`). The spec names no calls: these are ours, under `coin/pledge/`. Amounts are
 * decimal texts in their coin; rates decimal fractions per hour, day and year (simple interest);
 * LTVs decimal fractions (0.65 is 65 %).
 */

const productIdField = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "must be a product id such as USDT-BTC-30");
const loanIdField = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "must be a loan id");
const pageNo = intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less"));
const pageSize = intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less"));

/** One loan product as members see it. */
export const pledgeProductSchema = z.object({
  productId: z.string(),
  loanCoin: z.string(),
  collateralCoin: z.string(),
  /** Days until due; 0: flexible. */
  termDays: z.number().int(),
  hourlyRate: z.string(),
  dailyRate: z.string(),
  yearlyRate: z.string(),
  /** The hourly rate once a term loan is overdue. */
  overdueHourlyRate: z.string(),
  initialLtv: z.string(),
  callLtv: z.string(),
  liquidationLtv: z.string(),
  minAmount: unsignedDecimalString,
  maxAmount: unsignedDecimalString,
  /** The collateral's last price in the loan coin (its market's last trade); null before one. */
  price: unsignedDecimalString.nullable(),
  enabled: z.boolean(),
});
export type PledgeProductView = z.infer<typeof pledgeProductSchema>;

/** What a loan of a product would be: the calculator's answer. */
export const pledgeQuoteSchema = z.object({
  productId: z.string(),
  /** The most the collateral lets the member borrow (at the initial LTV), or null without collateral. */
  maxAmount: unsignedDecimalString.nullable(),
  /** The least collateral the amount needs (rounded up), or null without an amount. */
  minCollateral: unsignedDecimalString.nullable(),
  /** The amount over the collateral, or null without both. */
  ltv: z.string().nullable(),
  firstHourInterest: unsignedDecimalString.nullable(),
  dailyInterest: unsignedDecimalString.nullable(),
  /** Interest over the whole term (a flexible loan: 30 days), or null without an amount. */
  termInterest: unsignedDecimalString.nullable(),
  /** The collateral's price at which the loan would be liquidated, or null without both. */
  liquidationPrice: unsignedDecimalString.nullable(),
});
export type PledgeQuote = z.infer<typeof pledgeQuoteSchema>;

/** One of the member's loans, open or closed. */
export const pledgeLoanSchema = z.object({
  loanId: z.string(),
  productId: z.string(),
  loanCoin: z.string(),
  collateralCoin: z.string(),
  termDays: z.number().int(),
  status: z.enum(["open", "repaid", "liquidated"]),
  principal: unsignedDecimalString,
  interest: unsignedDecimalString,
  /** Principal and interest. */
  owed: unsignedDecimalString,
  collateral: unsignedDecimalString,
  /** Open loans: now, at the collateral's last price; null closed or without a price. */
  ltv: z.string().nullable(),
  initialLtv: z.string(),
  callLtv: z.string(),
  liquidationLtv: z.string(),
  /** The collateral's price that liquidates it; null when closed. */
  liquidationPrice: unsignedDecimalString.nullable(),
  /** The most collateral it can give back now (staying at the initial LTV). */
  removable: unsignedDecimalString,
  hourlyRate: z.string(),
  /** At the margin-call LTV (and not back under it yet). */
  warned: z.boolean(),
  /** A term loan past its due time (charged the overdue rate). */
  overdue: z.boolean(),
  dueAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PledgeLoanView = z.infer<typeof pledgeLoanSchema>;

export const PLEDGE_RECORD_KINDS = ["borrow", "repay", "interest", "add", "remove", "liquidation", "writeoff"] as const;

/** One fact of a loan: borrowed, repaid (its interest and principal), interest charged, collateral in or out, sold at liquidation, written off. */
export const pledgeRecordSchema = z.object({
  id: z.string(),
  loanId: z.string(),
  kind: z.enum(PLEDGE_RECORD_KINDS),
  coin: z.string(),
  amount: unsignedDecimalString,
  principal: unsignedDecimalString,
  interest: unsignedDecimalString,
  createdAt: z.string(),
});
export type PledgeRecordView = z.infer<typeof pledgeRecordSchema>;

/** An operator's product: rates as hourly fractions, LTVs as fractions, amounts in the loan coin. */
export const pledgeProductRulesSchema = z.object({
  productId: productIdField,
  loanCoin: coinField,
  collateralCoin: coinField,
  termDays: z.coerce.number().int("must be a whole number"),
  hourlyRate: z.string().regex(/^\d+(\.\d+)?$/, "must be a decimal fraction such as 0.00001"),
  overdueRate: z.string().regex(/^\d+(\.\d+)?$/, "must be a decimal fraction such as 0.00003"),
  initialLtv: z.string().regex(/^0?\.\d+$/, "must be a fraction such as 0.65"),
  callLtv: z.string().regex(/^0?\.\d+$/, "must be a fraction such as 0.8"),
  liquidationLtv: z.string().regex(/^0?\.\d+$/, "must be a fraction such as 0.9"),
  minAmount: positiveDecimalField,
  maxAmount: positiveDecimalField,
  enabled: z.boolean(),
});

export const pledgeEndpoints = {
  /** The loan products on offer (enabled ones), with their collateral's price: anyone may read them. */
  pledgeProducts: define({
    method: "GET",
    path: "coin/pledge/products",
    response: z.array(pledgeProductSchema),
  }),
  /** The calculator: the most a collateral allows, the least collateral an amount needs, the interest. */
  pledgeQuote: define({
    method: "GET",
    path: "coin/pledge/quote",
    query: z.object({ productId: productIdField, amount: positiveDecimalField.optional(), collateral: positiveDecimalField.optional() }),
    response: pledgeQuoteSchema,
  }),
  /** A new loan: the collateral from the member's funding account, the loan to it. */
  pledgeBorrow: define({
    method: "POST",
    path: "coin/pledge/borrow",
    body: z.object({ productId: productIdField, amount: positiveDecimalField, collateral: positiveDecimalField, idempotencyKey }),
    response: pledgeLoanSchema,
  }),
  /** Pays back part or all of a loan from the funding account, interest first; the last payment returns the collateral. */
  pledgeRepay: define({
    method: "POST",
    path: "coin/pledge/repay",
    body: z.object({ loanId: loanIdField, amount: positiveDecimalField, idempotencyKey }),
    response: pledgeLoanSchema,
  }),
  /** Adds collateral, or takes some back while the loan stays at or under its initial LTV. */
  pledgeCollateral: define({
    method: "POST",
    path: "coin/pledge/collateral",
    body: z.object({
      loanId: loanIdField,
      amount: positiveDecimalField,
      direction: z.enum(["add", "remove"], { message: "must be add or remove" }),
      idempotencyKey,
    }),
    response: pledgeLoanSchema,
  }),
  /** The member's loans: `open`, or `closed` (repaid or liquidated), newest first. */
  pledgeLoans: define({
    method: "GET",
    path: "coin/pledge/loans/:status/:pageNo/:pageSize",
    params: z.object({ status: z.enum(["open", "closed"], { message: "must be open or closed" }), pageNo, pageSize }),
    response: pageOf(pledgeLoanSchema),
  }),
  /** One of the member's loans; another member's answers 404 like a missing one. */
  pledgeLoan: define({
    method: "GET",
    path: "coin/pledge/loan/:loanId",
    params: z.object({ loanId: loanIdField }),
    response: pledgeLoanSchema,
  }),
  /** The member's loan records, newest first, of one loan or all. */
  pledgeRecords: define({
    method: "GET",
    path: "coin/pledge/records/:pageNo/:pageSize",
    params: z.object({ pageNo, pageSize }),
    query: z.object({
      loanId: loanIdField.optional(),
      kind: z.enum(PLEDGE_RECORD_KINDS, { message: `must be one of ${PLEDGE_RECORD_KINDS.join(", ")}` }).optional(),
    }),
    response: pageOf(pledgeRecordSchema),
  }),
  /** Operator call: every product, enabled or not, with what it lends now. */
  opsPledgeProducts: define({
    method: "GET",
    path: "/admin/pledge/products",
    operator: "markets.read",
    absolute: true,
    response: z.array(pledgeProductSchema.extend({ openLoans: z.number().int(), lent: unsignedDecimalString })),
  }),
  /** Operator call: a product, new or changed (its coins and term never change). */
  adminPledgeProduct: define({
    method: "POST",
    path: "/admin/pledge/product",
    operator: "markets.change",
    absolute: true,
    body: pledgeProductRulesSchema,
    response: pledgeProductSchema,
  }),
} as const;
