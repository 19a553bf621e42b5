import * as z from "zod";
import { operatorEmailField, operatorNameField, operatorPasswordField, operatorRoleField, totpField } from "#protocol/operators";

/**
 * Schemas of the operator console's forms (issue 29, decision 043); messages are text keys. The
 * fields are the operator API's own (protocol/operators.ts), so both tiers refuse the same input.
 */
export const opsLoginSchema = z.object({
  email: z.string({ message: "ops.errors.email" }).pipe(operatorEmailField),
  password: z.string({ message: "ops.errors.password" }).min(1, "ops.errors.password").max(128, "ops.errors.password_long"),
  /** Empty at the first login: the authenticator is set up next. */
  totp: z.string({ message: "ops.errors.totp_format" }).pipe(totpField).optional(),
});

/** The first login's second step: the authenticator's first code. */
export const opsSetupSchema = z.object({
  ticket: z.string({ message: "ops.errors.setup_expired" }).min(10, "ops.errors.setup_expired").max(100, "ops.errors.setup_expired"),
  totp: z.string({ message: "ops.errors.totp_format" }).pipe(totpField),
});

export const opsAddOperatorSchema = z.object({
  email: z.string({ message: "ops.errors.email" }).pipe(operatorEmailField),
  name: z.string({ message: "ops.errors.name" }).pipe(operatorNameField),
  role: z.string({ message: "ops.errors.role" }).pipe(operatorRoleField),
  password: z.string({ message: "ops.errors.password_short" }).pipe(operatorPasswordField),
});

/** A decision on a queue item (an identity, a withdrawal): a rejection needs the reason the member reads. */
export const opsDecisionSchema = z
  .object({
    id: z.string({ message: "ops.errors.item" }).regex(/^[0-9A-Za-z_-]{1,40}$/, "ops.errors.item"),
    decision: z.enum(["approve", "reject"], { message: "ops.errors.decision" }),
    reason: z.string().trim().max(300, "ops.errors.reason_long").optional(),
  })
  .refine((v) => v.decision === "approve" || (v.reason !== undefined && v.reason.length > 0), { path: ["reason"], message: "ops.errors.reason" });

/** A change to a member (issue 29): freeze, unfreeze, or reset a lost authenticator, each with the reason the audit log keeps. */
export const opsMemberChangeSchema = z.object({
  intent: z.enum(["freeze", "unfreeze", "reset_2fa"], { message: "ops.errors.invalid" }),
  reason: z.string({ message: "ops.errors.member_reason" }).trim().min(5, "ops.errors.member_reason").max(300, "ops.errors.reason_long"),
});

/**
 * A deposit credited by hand (issue 29; finance): the member, the coin, the account, the amount as
 * typed (read exactly on the server in the operator's number format) and the reference that makes
 * it once only.
 */
export const opsCreditSchema = z.object({
  uid: z
    .string({ message: "ops.errors.member" })
    .trim()
    .regex(/^\d{8}$/, "ops.errors.member"),
  coin: z.string({ message: "ops.deposits.coin_required" }).regex(/^[A-Z0-9]{2,10}$/, "ops.deposits.coin_required"),
  account: z.enum(["funding", "spot"], { message: "ops.errors.invalid" }),
  amount: z.string({ message: "ops.deposits.amount_required" }).trim().min(1, "ops.deposits.amount_required").max(60, "ops.deposits.amount_required"),
  reference: z
    .string({ message: "ops.deposits.reference" })
    .trim()
    .regex(/^[A-Za-z0-9_-]{4,64}$/, "ops.deposits.reference"),
});
