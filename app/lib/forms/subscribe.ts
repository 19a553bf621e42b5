// Bundling only (the page's modules, for where the browser build puts them): schema-bundle.ts.
import "./schema-bundle";
import * as z from "zod";
import { idempotencyKeyField } from "#protocol/fields";
import type { DecimalMark } from "#protocol/decimal-input";
import { decimalField } from "./decimal-field";

/** The most decimals a subscription's quantity takes (a lot's own, when it has fewer). */
export const SUBSCRIBE_MAX_DECIMALS = 8;

/** The decimals a quantity of whole lots can have: the lot's own (`10` → 0, `0.1` → 1), at most 8. */
export function lotScaleOf(lot: string): number {
  const fraction = lot.split(".")[1]?.replace(/0+$/, "") ?? "";
  return Math.min(fraction.length, SUBSCRIBE_MAX_DECIMALS);
}

const projectIdField = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "subscriptions.validation.project");

/**
 * A project's subscribe form on `/newCurrency` and `/etf` (decision 053): the quantity read exactly
 * as typed in the member's language (decision 014) at the lot's decimals, above 0; a key makes a
 * retried post subscribe once. Whole lots, the project's minimum and the member's limit are the
 * engine's to say, in its words.
 */
export function subscribeSchema(scale: number, mark: DecimalMark) {
  return z
    .object({
      projectId: projectIdField,
      quantity: decimalField({ scale: Math.min(scale, SUBSCRIBE_MAX_DECIMALS), mark }),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      if (!v.quantity || !/[1-9]/.test(v.quantity)) ctx.addIssue({ code: "custom", path: ["quantity"], message: "subscriptions.validation.quantity_required" });
    });
}

/** The return application's button (`/newCurrency/list`, `/etf/list`): only its key, so a retried post applies once. */
export function returnApplySchema() {
  return z.object({ idempotencyKey: idempotencyKeyField });
}
