import * as z from "zod";
import { OPEN_ACCOUNT_CODES } from "../accounts";
import { BILL_TYPES } from "../wallet-lists";
import { define, intString } from "../endpoint";
import { coinField, dayField } from "../fields";
import { decimalString } from "../money";
import { HISTORY_PAGE_SIZE_MAX, pageOf } from "./order-history";

/**
 * A member's bills (spec §7 "Wallet": `assets/getMyBill`): every change of one of their posted
 * balances as a statement line, newest first, with coin, type, account and date filters, paging
 * and a CSV export (the export's row limit is order history's EXPORT_MAX_ROWS).
 * See docs/decisions/026-bills.md.
 */

/** What moved the balance. `other` is a transfer no rule names (none today); it is shown, not hidden. */
export { BILL_TYPES };
export type BillTypeName = (typeof BILL_TYPES)[number];

/**
 * `total` counts lines up to this many; past it `more` is true and `total` stays here (counting
 * a member's every trade would cost more than the page itself).
 */
export const BILLS_COUNT_MAX = 1_000;

const ACCOUNT_MESSAGE = "must be 1 (funding), 2 (spot) or 4 (contract)";

const filterFields = {
  coin: coinField.optional(),
  type: z.enum(BILL_TYPES, { message: `must be one of ${BILL_TYPES.join(", ")}` }).optional(),
  /** The account, by its code (protocol/accounts.ts). */
  account: z.enum(OPEN_ACCOUNT_CODES, { message: ACCOUNT_MESSAGE }).optional(),
  /** First day (UTC) of the range, inclusive. */
  from: dayField.optional(),
  /** Last day (UTC) of the range, inclusive. */
  to: dayField.optional(),
};

const pagingFields = {
  pageNo: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less")).optional(),
  pageSize: intString.pipe(z.number().int().min(1, "must be 1 or more").max(HISTORY_PAGE_SIZE_MAX, `must be ${HISTORY_PAGE_SIZE_MAX} or less`)).optional(),
};

const rangeInOrder = (v: { from?: string; to?: string }) => !v.from || !v.to || v.from <= v.to;
const rangeMessage = { path: ["to"], message: "must not be before from" };

export const billFilterSchema = z.object(filterFields).refine(rangeInOrder, rangeMessage);
export type BillFilter = z.output<typeof billFilterSchema>;

export const billQuerySchema = z.object({ ...filterFields, ...pagingFields }).refine(rangeInOrder, rangeMessage);

/** One statement line. */
export const billLineSchema = z.object({
  /** Stable across calls: `in:`/`out:` and the transfer id, or `trade:<trade id>:<buy|sell>:<base|quote|fee>`. */
  id: z.string(),
  time: z.string(),
  /** The account's code and name (protocol/accounts.ts). */
  accountCode: z.enum(OPEN_ACCOUNT_CODES),
  account: z.string(),
  coin: z.string(),
  type: z.enum(BILL_TYPES),
  /** What the line added to the balance, exact; negative when taken. */
  amount: decimalString,
  /** The member's order id (trades), the withdrawal id, the deposit reference or the transfer id. */
  reference: z.string(),
});
export type BillLineView = z.output<typeof billLineSchema>;

export const billEndpoints = {
  /** The member's bill lines, newest first. */
  myBills: define({
    method: "POST",
    path: "coin/assets/getMyBill",
    query: billQuerySchema,
    response: pageOf(billLineSchema).extend({ more: z.boolean() }),
  }),
  /**
   * CSV download of the member's bill lines for a filter: `text/csv` with `Content-Disposition:
   * attachment`, headers in the request's language; a refusal is an envelope. More than
   * EXPORT_MAX_ROWS lines is refused.
   */
  exportMyBill: define({
    method: "POST",
    path: "coin/assets/exportMyBill",
    body: billFilterSchema,
    response: z.string(),
  }),
} as const;
