import * as z from "zod";
import { areaCodeField, codeField, emailField, phoneField } from "#protocol/member";

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

export const bindEmailSchema = z.object({ email: z.string({ message: "validation.email" }).pipe(emailField), code: optional(codeField) });
export const bindPhoneSchema = z.object({
  areaCode: z.string({ message: "validation.area_code" }).pipe(areaCodeField),
  phone: z.string({ message: "validation.phone" }).pipe(phoneField),
  code: optional(codeField),
});
