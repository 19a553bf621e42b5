import * as z from "zod";
import { define, intString } from "../endpoint";
import { coinField, memberUidField, pageCursorField } from "../fields";
import { unsignedDecimalString } from "../money";
import { pageOf } from "./order-history";

/**
 * A member's deposits from the chains (spec §7 "Wallet": `assets/getRechargeLog`;
 * docs/decisions/027). States: `confirming` (in a block, counting confirmations), `credited`
 * (on the funding account), `below_minimum` (recorded, not credited), `unsupported` (a coin or
 * token the network does not carry here, or its deposits are off: support's work), `dropped` (its
 * block was replaced before it was credited; it comes back if a later block holds it).
 */
export const DEPOSIT_STATES = ["confirming", "credited", "below_minimum", "unsupported", "dropped"] as const;
export type DepositStateName = (typeof DEPOSIT_STATES)[number];

export const depositViewSchema = z.object({
  id: z.string(),
  coin: z.string(),
  network: z.string(),
  address: z.string(),
  /** The destination tag it carried (XRP), if any. */
  tag: z.string().nullable(),
  /** As it arrived on the chain (the credit is this amount at the coin's scale). */
  amount: unsignedDecimalString,
  txid: z.string(),
  state: z.enum(DEPOSIT_STATES),
  /** n of N: blocks counted so far … */
  confirmations: z.number().int(),
  /** … and how many the network needs (null when the coin is not carried on it). */
  confirmationsRequired: z.number().int().nullable(),
  /** When it was first seen in a block. */
  createdAt: z.string(),
  creditedAt: z.string().nullable(),
});
export type DepositView = z.output<typeof depositViewSchema>;

/** The operators' deposit list's filter (issue 29): a member, a coin, a state, and where the previous page ended. */
export const opsDepositQuerySchema = z.object({
  uid: memberUidField.optional(),
  coin: coinField.optional(),
  state: z.enum(DEPOSIT_STATES, { message: "ops.errors.invalid" }).optional(),
  before: pageCursorField.optional(),
});

export const depositEndpoints = {
  /** Every member's deposits from the chains, newest first (the console's deposits page). */
  opsDeposits: define({
    method: "GET",
    path: "/admin/deposits",
    absolute: true,
    operator: "deposits.read",
    query: opsDepositQuerySchema,
    response: z.object({ rows: z.array(depositViewSchema.extend({ uid: z.string() })), next: z.string().nullable() }),
  }),
  /** The member's deposits, newest first, optionally of one coin. */
  myDeposits: define({
    method: "POST",
    path: "coin/assets/getRechargeLog",
    query: z.object({
      pageNo: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less")).optional(),
      pageSize: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less")).optional(),
      coin: coinField.optional(),
    }),
    response: pageOf(depositViewSchema),
  }),
};
