import * as z from "zod";
import { define, intString } from "../endpoint";
import { coinField, idempotencyKeyField, orderIdField, positiveDecimalField } from "../fields";
import { codeField, googleCodeField, tradePasswordField } from "../member";
import { addressField, memoField, networkField } from "./wallet";
import { unsignedDecimalString } from "../money";
import { CANCELLABLE_WITHDRAWAL_STATES, WITHDRAWAL_STATES } from "../wallet-lists";
import { pageOf } from "./order-history";

/**
 * A member's withdrawals and the operators' review (spec §7 "Wallet": `assets/getWithdrawalLog`,
 * `coin/assets/withdrawal/cancel/{id}`; §3 "Withdrawal record" with its rejection reason and
 * cancel; §4 "Cancel success"). The request itself (`assets/withdrawalWithNotDecrypt`) comes with
 * the coin networks and their rules. States: engine/core/wallet/withdrawals.ts.
 */
export { CANCELLABLE_WITHDRAWAL_STATES, WITHDRAWAL_STATES };

/** A withdrawal's id as the engine makes it. */
const withdrawalIdField = orderIdField;

export const withdrawalViewSchema = z.object({
  id: z.string(),
  coin: z.string(),
  network: z.string().nullable(),
  address: z.string().nullable(),
  /** A destination tag or memo, for networks that need one. */
  memo: z.string().nullable(),
  /** What arrives at the address. */
  amount: unsignedDecimalString,
  /** What the exchange keeps (the same coin). */
  fee: unsignedDecimalString,
  state: z.enum(WITHDRAWAL_STATES),
  /** The operator's reason, when rejected. */
  reason: z.string().nullable(),
  /** The chain transaction, from the broadcast on. */
  txid: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WithdrawalView = z.output<typeof withdrawalViewSchema>;

const pageFields = {
  pageNo: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less")).optional(),
  pageSize: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less")).optional(),
};

export const withdrawalEndpoints = {
  /**
   * A member asks to withdraw (spec §7 `assets/withdrawalWithNotDecrypt`, a JSON body): `amount`
   * is what arrives at `address`; the network's fee comes on top, and both are held at once.
   * Checked: the network, the address's format and checksum, the coin's decimals, the minimum,
   * the daily limit, the transaction password, a security code and the Google code when bound.
   * Answered with the withdrawal in review; a retried post with its key gets the same answer.
   */
  withdraw: define({
    method: "POST",
    path: "coin/assets/withdrawalWithNotDecrypt",
    body: z.object({
      coin: coinField,
      network: networkField,
      address: addressField,
      /** A destination tag (XRP); ignored on networks without tags. */
      memo: memoField.optional(),
      amount: positiveDecimalField,
      tradePassword: tradePasswordField,
      code: codeField,
      googleCode: googleCodeField.optional(),
      idempotencyKey: idempotencyKeyField,
    }),
    response: z.object({ id: z.string(), state: z.enum(WITHDRAWAL_STATES) }),
  }),
  /** The member's withdrawals, newest first; of one coin and in one state when asked. */
  myWithdrawals: define({
    method: "POST",
    path: "coin/assets/getWithdrawalLog",
    query: z.object({
      ...pageFields,
      coin: coinField.optional(),
      state: z.enum(WITHDRAWAL_STATES, { message: `must be one of ${WITHDRAWAL_STATES.join(", ")}` }).optional(),
    }),
    response: pageOf(withdrawalViewSchema),
  }),
  /** The member cancels one still in review; another's or a later one is refused and nothing changes. */
  cancelWithdrawal: define({
    method: "POST",
    path: "coin/assets/withdrawal/cancel/:withdrawalId",
    params: z.object({ withdrawalId: withdrawalIdField }),
    response: z.null(),
  }),
  /** Operator call (not in the spec): withdrawals in one state, oldest first (the review queue by default). */
  adminWithdrawals: define({
    method: "GET",
    path: "/admin/withdrawals",
    operator: "withdrawals.read",
    absolute: true,
    query: z.object({ state: z.enum(WITHDRAWAL_STATES).default("review") }),
    response: z.array(withdrawalViewSchema.extend({ uid: z.string() })),
  }),
  /** Operator call (not in the spec): approve a withdrawal in review, or reject it with the reason its member reads. */
  adminWithdrawalReview: define({
    method: "POST",
    path: "/admin/withdrawal/review",
    operator: "withdrawals.review",
    absolute: true,
    body: z
      .object({
        id: withdrawalIdField,
        decision: z.enum(["approve", "reject"]),
        reason: z.string().trim().min(1).max(500).optional(),
        /** Where the operator saw it (the console sends it): decided only from there, so two operators at once cannot both act. */
        from: z.enum(["review", "approved"]).optional(),
      })
      .refine((v) => v.decision === "approve" || v.reason !== undefined, { path: ["reason"], message: "a rejection needs the reason the member will read" })
      .refine((v) => !(v.decision === "approve" && v.from === "approved"), { path: ["from"], message: "an approved withdrawal is approved already" }),
    response: z.null(),
  }),
};
