import * as z from "zod";
import { codeField, deviceIdField, passwordField, tradePasswordField } from "#protocol/member";

/** Schemas of the account-center forms (messages are text keys). */
export const changePasswordSchema = z
  .object({
    oldPassword: z.string({ message: "validation.password_required" }).min(1, "validation.password_required"),
    newPassword: z.string({ message: "validation.password" }).pipe(passwordField),
    newPassword1: z.string({ message: "validation.password_mismatch" }),
  })
  .refine((v) => v.newPassword === v.newPassword1, { path: ["newPassword1"], message: "validation.password_mismatch" });

export const tradePasswordSchema = z
  .object({
    tradePassword: z.string({ message: "validation.trade_password" }).pipe(tradePasswordField),
    tradePassword1: z.string({ message: "validation.password_mismatch" }),
    code: z.string({ message: "validation.code" }).pipe(codeField),
  })
  .refine((v) => v.tradePassword === v.tradePassword1, { path: ["tradePassword1"], message: "validation.password_mismatch" });

export const antiCodeSchema = z.object({
  antiCode: z
    .string({ message: "validation.anti_code" })
    .trim()
    .regex(/^[A-Za-z0-9]{4,20}$/, "validation.anti_code"),
  code: z.string({ message: "validation.code" }).pipe(codeField),
});

export const renameDeviceSchema = z.object({
  id: deviceIdField,
  name: z.string({ message: "validation.device_name" }).trim().min(1, "validation.device_name").max(60, "validation.device_name"),
});

export const googleSchema = z.object({
  googleCode: z.string({ message: "validation.code" }).pipe(codeField),
  code: z.string({ message: "validation.code" }).pipe(codeField),
});
