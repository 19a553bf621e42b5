// Bundling only (the page's modules, for where the browser build puts them): schema-bundle.ts.
import "./schema-bundle";
import * as z from "zod";
import { coinField, idempotencyKeyField } from "#protocol/fields";
import { codeField, tradePasswordField } from "#protocol/member";
import { networkField } from "#protocol/endpoints/wallet";
import { compareDecimal, decimals, fromMinor, sumFits, toMinor } from "#protocol/decimal";
import type { DecimalMark } from "#protocol/decimal-input";
import { decimalField } from "./decimal-field";
import { keyError } from "./form-error";

/** What the withdrawal form is checked against: the network's rules and the member's funding balance. */
export interface WithdrawalRules {
  /** Decimals the amount takes (the coin's, or the chain's when it carries fewer). */
  scale: number;
  mark: DecimalMark;
  coin: string;
  minWithdraw: string;
  fee: string;
  /** The funding account's available balance of the coin. */
  available: string;
  /** The network takes a destination tag (XRP). */
  needsTag: boolean;
  /** The member bound Google Authenticator: its code is asked for too. */
  googleBound: boolean;
}

/** The destination address as typed. */
const addressInput = z.string({ message: "wallet.withdraw.address_required" }).trim().min(1, "wallet.withdraw.address_required").max(128, "validation.address");

/** The destination tag as typed (XRP): 1 to 10 digits, or left out. */
const tagInput = z
  .string()
  .trim()
  .regex(/^\d{1,10}$/, "wallet.withdraw.tag_invalid")
  .optional();

/** The most that can be withdrawn: the available balance less the fee ("0" when the fee does not fit). */
export function maxWithdrawal(available: string, fee: string): string {
  const scale = Math.max(decimals(available), decimals(fee));
  const left = toMinor(available, scale) - toMinor(fee, scale);
  return left <= 0n ? "0" : fromMinor(left, scale, { trim: true });
}

/**
 * The withdrawal form (spec §2 wallet `withdrawal`, §5, §8; issue 12): the coin and network, the
 * address (and a tag where the network takes one), the amount that arrives (read exactly, in the
 * member's language, at the coin's decimals), at least the network's minimum and, with the fee on
 * top, within the funding account's available balance; the 6-digit transaction password, the
 * security code and the Google code when bound. The engine checks all of it again, and more (the
 * address's checksum, the daily limit, the codes themselves). A key makes a retried post act once.
 */
export function withdrawalSchema(rules: WithdrawalRules) {
  return z
    .object({
      coin: coinField,
      network: networkField,
      address: addressInput,
      memo: tagInput,
      amount: decimalField({ scale: rules.scale, mark: rules.mark }),
      tradePassword: z.string({ message: "validation.trade_password" }).pipe(tradePasswordField),
      code: z.string({ message: "validation.code" }).pipe(codeField),
      googleCode: z.string().pipe(codeField).optional(),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      if (v.amount === undefined) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: "wallet.withdraw.amount_required" });
      } else if (compareDecimal(v.amount, rules.minWithdraw) < 0) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: keyError("wallet.withdraw.below_minimum", { min: rules.minWithdraw, coin: rules.coin }) });
      } else if (!sumFits(v.amount, rules.fee, rules.available)) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: "wallet.withdraw.above_available" });
      }
      if (rules.googleBound && v.googleCode === undefined) ctx.addIssue({ code: "custom", path: ["googleCode"], message: "validation.code" });
    });
}
export type WithdrawalForm = z.output<ReturnType<typeof withdrawalSchema>>;

/**
 * The form's "send code" intent: the code confirms one withdrawal (the engine binds it to the
 * coin, network, amount, address and destination tag, and its mail names them), so those must be
 * filled in first (the tag where the network takes one and the member wrote it).
 */
export function withdrawalCodeSchema(rules: WithdrawalRules) {
  return z.object({
    coin: coinField,
    network: networkField,
    address: addressInput,
    memo: tagInput,
    amount: decimalField({ scale: rules.scale, mark: rules.mark }).pipe(z.string({ message: "wallet.withdraw.amount_required" })),
  });
}
