import * as z from "zod";
import {
  configCodeField,
  configCurrencyCodeField,
  configCurrencyValueField,
  configDisplayText,
  configIconField,
  configPathField,
} from "#protocol/endpoints/config-admin";
import { LANGUAGE_CODES } from "#protocol/languages";

/**
 * The console's forms of the configuration tables (issue 29, decision 044): one per table, each
 * field the operator API's own (protocol/endpoints/config-admin.ts) read from the form's text, so
 * both tiers refuse the same input with the same message. The rate is read on the server in the
 * operator's number format.
 */
const code = z.string({ message: "ops.config.errors.code" }).pipe(configCodeField);
const path = z.string({ message: "ops.config.errors.path" }).pipe(configPathField);
const sort = z
  .string({ message: "ops.config.errors.sort" })
  .regex(/^\s*-?\d{1,4}\s*$/, "ops.config.errors.sort")
  .transform((v) => Number(v.trim()));
/** A checkbox: "on" when ticked, absent when not. */
const shown = z
  .literal("on", { message: "ops.errors.invalid" })
  .optional()
  .transform((v) => v === "on");
const text = (max: number) => z.string({ message: "ops.config.errors.text" }).pipe(configDisplayText(max));

export const navItemFormSchema = z.object({
  nav_code: code,
  nav_path: path,
  pid: z
    .string({ message: "ops.config.errors.parent" })
    .regex(/^\d{1,10}$/, "ops.config.errors.parent")
    .transform(Number),
  nav_sort: sort,
  nav_show: shown,
  nav_icon: z
    .string()
    .pipe(configIconField.unwrap())
    .optional()
    .transform((v) => v ?? null),
});

export const footerLinkFormSchema = z.object({
  group_code: code,
  link_code: code,
  link_path: path,
  link_sort: sort,
  link_show: shown,
});

export const languageFormSchema = z.object({
  value: z.enum(LANGUAGE_CODES, { message: "ops.config.errors.language" }),
  label: text(40),
  text: text(10),
  sort,
});

export const currencyFormSchema = z.object({
  exchange_value: z.string({ message: "ops.config.errors.currency_value" }).pipe(configCurrencyValueField),
  quote_currency: z.string({ message: "ops.config.errors.currency" }).pipe(configCurrencyCodeField),
  exchange_code: text(8),
  rate: z.string({ message: "ops.config.errors.rate" }).trim().min(1, "ops.config.errors.rate").max(40, "ops.config.errors.rate"),
  sort,
});
