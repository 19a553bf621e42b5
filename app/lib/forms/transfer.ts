// Bundling only (the page's modules, for where the browser build puts them): schema-bundle.ts.
import "./schema-bundle";
import * as z from "zod";
import { OPEN_ACCOUNTS } from "#protocol/accounts";
import { coinField, idempotencyKeyField } from "#protocol/fields";
import type { DecimalMark } from "#protocol/decimal-input";
import { decimalField } from "./decimal-field";

/**
 * The wallet's transfer form (spec §2 wallet `transfer`, §7 `wallet/trans`): from one of the
 * member's accounts to another, a coin and an amount, read exactly as typed in the member's
 * language at the coin's decimals (decision 014). A key makes a retried post act once.
 */
export function transferSchema(coinScale: number, mark: DecimalMark) {
  return z
    .object({
      from: z.enum(OPEN_ACCOUNTS, { message: "wallet.transfer.account_required" }),
      to: z.enum(OPEN_ACCOUNTS, { message: "wallet.transfer.account_required" }),
      coin: coinField,
      amount: decimalField({ scale: coinScale, mark }),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      if (v.from === v.to) ctx.addIssue({ code: "custom", path: ["to"], message: "wallet.transfer.same_account" });
      if (v.amount === undefined) ctx.addIssue({ code: "custom", path: ["amount"], message: "wallet.transfer.amount_required" });
    });
}
export type TransferForm = z.output<ReturnType<typeof transferSchema>>;
