// Bundling only (the page's modules, for where the browser build puts them): schema-bundle.ts.
import "./schema-bundle";
import * as z from "zod";
import { idempotencyKeyField } from "#protocol/fields";
import type { DecimalMark } from "#protocol/decimal-input";
import { decimalField } from "./decimal-field";

const productIdField = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "loans.validation.product");
const loanIdField = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "loans.validation.loan");
const positive = (field: string, message: string) => (v: Record<string, unknown>, ctx: z.RefinementCtx) => {
  const value = v[field];
  if (typeof value !== "string" || !/[1-9]/.test(value)) ctx.addIssue({ code: "custom", path: [field], message });
};

/**
 * The borrow form of `/my-loan/get` (decision 051): a product, the loan and the collateral, each
 * read exactly as typed in the member's language at its coin's decimals (decision 014); a key makes
 * a retried post borrow once.
 */
export function pledgeBorrowSchema(loanScale: number, collateralScale: number, mark: DecimalMark) {
  return z
    .object({
      productId: productIdField,
      amount: decimalField({ scale: loanScale, mark }),
      collateral: decimalField({ scale: collateralScale, mark }),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      positive("amount", "loans.validation.amount_required")(v, ctx);
      positive("collateral", "loans.validation.collateral_required")(v, ctx);
    });
}

/** What a loan's form on `/my-loan` does: repay (the loan coin), add or take back collateral. */
export const LOAN_OPERATIONS = ["repay", "add", "remove"] as const;
export type LoanOperation = (typeof LOAN_OPERATIONS)[number];

/** A loan's form: one operation and its amount (the repayment's coin or the collateral's, at its decimals). */
export function pledgeChangeSchema(scale: number, mark: DecimalMark) {
  return z
    .object({
      loanId: loanIdField,
      operation: z.enum(LOAN_OPERATIONS, { message: "loans.validation.operation" }),
      amount: decimalField({ scale, mark }),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine(positive("amount", "loans.validation.amount_required"));
}

/** The calculator of `/pledge-loan` (a GET form): a product and what the visitor has typed, either or both. */
export function pledgeQuoteSchema(mark: DecimalMark) {
  return z.object({
    product: productIdField.optional(),
    amount: decimalField({ scale: 18, mark }),
    collateral: decimalField({ scale: 18, mark }),
  });
}
