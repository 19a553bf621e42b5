import * as z from "zod";
import { areaCodeField, codeField, emailField, inviteCodeField, passwordField, phoneField, tradePasswordField } from "#protocol/member";

/** Schemas of the login and registration forms; messages are text keys (`validation.*`). */
export const accountTypeField = z.enum(["email", "phone"]).catch("email");

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

function requireAccount(value: { accountType: "email" | "phone"; email?: string; areaCode?: string; phone?: string }, ctx: z.core.$RefinementCtx) {
  if (value.accountType === "email" && !value.email) ctx.addIssue({ code: "custom", path: ["email"], message: "validation.email" });
  if (value.accountType === "phone" && !value.areaCode) ctx.addIssue({ code: "custom", path: ["areaCode"], message: "validation.area_code" });
  if (value.accountType === "phone" && !value.phone) ctx.addIssue({ code: "custom", path: ["phone"], message: "validation.phone" });
}

const account = {
  accountType: accountTypeField,
  email: optional(emailField),
  areaCode: optional(areaCodeField),
  phone: optional(phoneField),
};

export const loginSchema = z
  .object({
    ...account,
    password: z.string({ message: "validation.password_required" }).min(1, "validation.password_required").max(100),
    googleCode: optional(codeField),
  })
  .superRefine(requireAccount);

export const sendCodeSchema = z.object(account).superRefine(requireAccount);

export const registerSchema = z
  .object({
    ...account,
    code: z.string({ message: "validation.code" }).pipe(codeField),
    password: z.string({ message: "validation.password" }).pipe(passwordField),
    inviteCode: optional(inviteCodeField),
    tradePassword: optional(tradePasswordField),
    website: z.string().max(0).optional(),
  })
  .superRefine(requireAccount);

/** The forgotten-password form: the account, the `reset` code sent to it, the new password twice. */
export const resetPasswordSchema = z
  .object({
    ...account,
    code: z.string({ message: "validation.code" }).pipe(codeField),
    password: z.string({ message: "validation.password" }).pipe(passwordField),
    password1: z.string({ message: "validation.password_mismatch" }).max(100),
  })
  .superRefine(requireAccount)
  .refine((v) => v.password === v.password1, { path: ["password1"], message: "validation.password_mismatch" });
