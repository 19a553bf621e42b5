import * as z from "zod";
import { currencyEntrySchema, footerLinkSchema, languageOptionSchema, navItemSchema } from "../config-tables";
import { define } from "../endpoint";
import { LANGUAGE_CODES } from "../languages";
import { COIN_PATTERN } from "../fields";

/**
 * The configuration tables operators keep in the console (issue 29, decision 044): the header's
 * navigation, the footer's links, the language switcher and the display currencies. Each save or
 * removal is one audit row with the row before and after; the engine's configuration version
 * moves with it (migration 027's triggers), so every page shows it within seconds. Messages are
 * the console's text keys: the console's forms check with these same fields.
 */

export const EDITABLE_CONFIG_TABLES = ["nav_item", "footer_link", "sys_language", "currency"] as const;
export type EditableConfigTable = (typeof EDITABLE_CONFIG_TABLES)[number];

/** A page of this site ("/market/main") or a secure address elsewhere; never a script or another scheme. */
const PATH_PATTERN = /^(\/(?![/\\])[A-Za-z0-9\-._~/?#[\]@!$&'()*+,;=%]*|https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9\-._~/?#[\]@!$&'()*+,;=%]*)?)$/;
export const configPathField = z.string().trim().max(300, "ops.config.errors.path").regex(PATH_PATTERN, "ops.config.errors.path");
/** A text key's last part (`nav.{code}`, `footer.links.{code}`): lower case, digits and underscores. */
export const configCodeField = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, "ops.config.errors.code");
/** The order among siblings: smaller first. */
export const configSortField = z.number().int("ops.config.errors.sort").min(-9999, "ops.config.errors.sort").max(9999, "ops.config.errors.sort");
/** An icon's name in the site's icon set, or none. */
export const configIconField = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9-]{0,39}$/, "ops.config.errors.icon")
  .nullable();
/** A display name: printable text. */
export const configDisplayText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "ops.config.errors.text")
    .max(max, "ops.config.errors.text")
    .refine((v) => !/\p{Cc}/u.test(v), "ops.config.errors.text");
/** US dollars to the currency (decision 004): above zero, at most 12 decimals, below 10^12. */
export const configRateField = z
  .string()
  .trim()
  .regex(/^(0|[1-9]\d{0,11})(\.\d{1,12})?$/, { message: "ops.config.errors.rate", abort: true })
  .refine((v) => /[1-9]/.test(v), "ops.config.errors.rate");

export const navItemEditSchema = z.object({
  /** 0: a root of the header; otherwise the root it sits under (two levels). */
  pid: z.number().int("ops.config.errors.parent").min(0, "ops.config.errors.parent"),
  nav_sort: configSortField,
  nav_show: z.boolean(),
  nav_path: configPathField,
  nav_code: configCodeField,
  nav_icon: configIconField,
});
export const footerLinkEditSchema = z.object({
  group_code: configCodeField,
  link_code: configCodeField,
  link_path: configPathField,
  link_sort: configSortField,
  link_show: z.boolean(),
});
export const languageOptionEditSchema = z.object({
  value: z.enum(LANGUAGE_CODES, { message: "ops.config.errors.language" }),
  label: configDisplayText(40),
  text: configDisplayText(10),
  sort: configSortField,
});
/** The code members pick (a cookie keeps it): three lower-case letters. */
export const configCurrencyValueField = z
  .string()
  .trim()
  .regex(/^[a-z]{3}$/, "ops.config.errors.currency_value");
/** The currency's own code, as prices name it (USD, EUR). */
export const configCurrencyCodeField = z.string().trim().regex(COIN_PATTERN, "ops.config.errors.currency");
export const currencyEditSchema = z.object({
  exchange_value: configCurrencyValueField,
  quote_currency: configCurrencyCodeField,
  exchange_code: configDisplayText(8),
  rate: configRateField,
  sort: configSortField,
});

/** What an editable table's row takes (the row's id aside). */
export const CONFIG_EDIT_SCHEMAS = {
  nav_item: navItemEditSchema,
  footer_link: footerLinkEditSchema,
  sys_language: languageOptionEditSchema,
  currency: currencyEditSchema,
} as const;
export type ConfigEdit<T extends EditableConfigTable> = z.infer<(typeof CONFIG_EDIT_SCHEMAS)[T]>;

const rowId = z.number().int().positive().max(2_147_483_647);
/** A save: a new row without `id`, a change of the row with it. */
const saveBody = z.discriminatedUnion(
  "table",
  EDITABLE_CONFIG_TABLES.map((table) => z.object({ table: z.literal(table), id: rowId.optional(), row: CONFIG_EDIT_SCHEMAS[table] })) as unknown as [
    z.ZodObject<{ table: z.ZodLiteral<"nav_item">; id: z.ZodOptional<typeof rowId>; row: typeof navItemEditSchema }>,
    z.ZodObject<{ table: z.ZodLiteral<"footer_link">; id: z.ZodOptional<typeof rowId>; row: typeof footerLinkEditSchema }>,
    z.ZodObject<{ table: z.ZodLiteral<"sys_language">; id: z.ZodOptional<typeof rowId>; row: typeof languageOptionEditSchema }>,
    z.ZodObject<{ table: z.ZodLiteral<"currency">; id: z.ZodOptional<typeof rowId>; row: typeof currencyEditSchema }>,
  ],
);
export type ConfigSave = z.infer<typeof saveBody>;

export const configTablesSchema = z.object({
  nav_item: z.array(navItemSchema),
  footer_link: z.array(footerLinkSchema),
  sys_language: z.array(languageOptionSchema),
  currency: z.array(currencyEntrySchema),
});
export type ConfigTables = z.infer<typeof configTablesSchema>;

export const configAdminEndpoints = {
  /** The four tables, each in the order pages show it. */
  opsConfig: define({
    method: "GET",
    path: "/admin/config",
    absolute: true,
    operator: "config.read",
    response: configTablesSchema,
  }),
  opsConfigSave: define({
    method: "POST",
    path: "/admin/config/save",
    absolute: true,
    operator: "config.change",
    body: saveBody,
    response: z.object({ id: z.number().int() }),
  }),
  opsConfigRemove: define({
    method: "POST",
    path: "/admin/config/remove",
    absolute: true,
    operator: "config.change",
    body: z.object({ table: z.enum(EDITABLE_CONFIG_TABLES, { message: "ops.errors.invalid" }), id: rowId }),
    response: z.null(),
  }),
} as const;
