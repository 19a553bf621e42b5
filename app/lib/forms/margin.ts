// Bundling only (the page's modules, for where the browser build puts them): schema-bundle.ts.
import "./schema-bundle";
import * as z from "zod";
import { coinField, idempotencyKeyField } from "#protocol/fields";
import type { DecimalMark } from "#protocol/decimal-input";
import { decimalField } from "./decimal-field";

/** What the margin page's money form does: funds in from the funding account or out to it, a borrow, a repayment. */
export const MARGIN_OPERATIONS = ["in", "out", "borrow", "repay"] as const;
export type MarginOperation = (typeof MARGIN_OPERATIONS)[number];

/**
 * The margin page's money form (decision 050): an operation on one coin of the account shown, the
 * amount read exactly as typed in the member's language at the coin's decimals (decision 014); a
 * key makes a retried post act once.
 */
export function marginMoveSchema(coinScale: number, mark: DecimalMark) {
  return z
    .object({
      operation: z.enum(MARGIN_OPERATIONS, { message: "margin_page.validation.operation" }),
      coin: coinField,
      amount: decimalField({ scale: coinScale, mark }),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      if (!v.amount || !/[1-9]/.test(v.amount)) ctx.addIssue({ code: "custom", path: ["amount"], message: "margin_page.validation.amount_required" });
    });
}

/** An isolated account's leverage: 2 to the pair's maximum. */
export function marginLeverageSchema(maxLeverage: number) {
  return z.object({
    leverage: z
      .string()
      .trim()
      .regex(/^\d{1,2}$/, "margin_page.validation.leverage")
      .transform(Number)
      .refine((n) => n >= 2 && n <= maxLeverage, "margin_page.validation.leverage"),
    idempotencyKey: idempotencyKeyField,
  });
}
