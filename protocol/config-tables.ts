import * as z from "zod";
import { LANGUAGE_CODES } from "./languages";
import { unsignedDecimalString } from "./money";

/**
 * Records of the configuration tables (spec §3) as they travel on the wire.
 * The engine serves them through `cgform-api/getData/{tableId}`; the web tier reads them to build
 * the header, the footer, the switchers and the texts.
 */

const id = z.number().int().positive();
const text = (max: number) => z.string().max(max);

export const navItemSchema = z.object({
  id,
  pid: z.number().int().nonnegative(),
  nav_sort: z.number().int(),
  nav_show: z.number().int(),
  nav_path: text(300),
  nav_code: text(80),
  nav_icon: text(80).nullable(),
});
export type NavItem = z.infer<typeof navItemSchema>;

export const footerLinkSchema = z.object({
  id,
  group_code: text(40),
  link_code: text(80),
  link_path: text(300),
  link_sort: z.number().int(),
  link_show: z.number().int(),
});
export type FooterLink = z.infer<typeof footerLinkSchema>;

/** A language of the switcher: `label` is its own name, `text` its short tag, `value` its code. */
export const languageOptionSchema = z.object({
  id,
  label: text(40),
  text: text(10),
  value: z.enum(LANGUAGE_CODES),
  sort: z.number().int(),
});
export type LanguageOption = z.infer<typeof languageOptionSchema>;

/**
 * A language entry served by `coin/open/lang/{lang}`: an operator's text that overrides the text of
 * the shipped locale file. `label` is the text key (dotted path), `text` the text, `value` the language.
 * The web tier skips an entry that does not validate (spec §8 "a failed language-entry evaluation is skipped").
 */
export const languageEntrySchema = z.object({
  id,
  label: text(120),
  text: text(2000),
  value: z.enum(LANGUAGE_CODES),
});
export type LanguageEntry = z.infer<typeof languageEntrySchema>;

/** A display currency: prices in USDT are multiplied by `rate` and prefixed with `exchange_code`. */
export const currencyEntrySchema = z.object({
  id,
  exchange_value: text(10),
  quote_currency: text(10),
  exchange_code: text(8),
  rate: unsignedDecimalString,
  sort: z.number().int(),
});
export type CurrencyEntry = z.infer<typeof currencyEntrySchema>;

export const siteConfigRowSchema = z.object({
  id,
  config_key: text(60),
  config_value: text(4000),
});
export type SiteConfigRow = z.infer<typeof siteConfigRowSchema>;

export const dictItemSchema = z.object({
  id,
  dict_code: text(60),
  item_value: text(60),
  item_text: text(200),
  item_key: text(120),
  sort: z.number().int(),
});
export type DictItem = z.infer<typeof dictItemSchema>;

/** Shape of `sys/sys/dict/getDictItems/{dict}` (the jeecg dictionary shape: value, text, title). */
export const dictOptionSchema = z.object({ value: z.string(), text: z.string(), title: z.string() });
export type DictOption = z.infer<typeof dictOptionSchema>;

export const areaCodeSchema = z.object({
  id,
  country_code: text(2),
  country_name: text(80),
  dial_code: text(6),
  phone_min_length: z.number().int(),
  phone_max_length: z.number().int(),
  sort: z.number().int(),
});
export type AreaCode = z.infer<typeof areaCodeSchema>;

export const CLIENT_TYPES = ["android", "ios", "pc", "h5"] as const;
export const clientVersionSchema = z.object({
  id,
  client_type: z.enum(CLIENT_TYPES),
  version: text(20),
  version_code: z.number().int(),
  force_update: z.number().int(),
  download_url: text(300),
  release_note: text(2000),
  released_at: text(40),
});
export type ClientVersion = z.infer<typeof clientVersionSchema>;

export const imageAddressSchema = z.object({
  id,
  img_code: text(60),
  img_url: text(300),
  img_alt_key: text(120),
  sort: z.number().int(),
});
export type ImageAddress = z.infer<typeof imageAddressSchema>;

/** The jeecg/blade page shape of `getData`. */
export function pageSchema<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    total: z.number().int().nonnegative(),
    size: z.number().int(),
    current: z.number().int().positive(),
    pages: z.number().int().nonnegative(),
  });
}
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** `pageSize=-521` asks for every row (spec §7). */
export const PAGE_SIZE_ALL = -521;
export const PAGE_SIZE_MAX = 500;

/** Every configuration table the engine serves through `getData`, with its record schema. */
export const CONFIG_TABLES = {
  nav_item: navItemSchema,
  footer_link: footerLinkSchema,
  sys_language: languageOptionSchema,
  lang_entry: languageEntrySchema,
  currency: currencyEntrySchema,
  site_config: siteConfigRowSchema,
  dict_item: dictItemSchema,
  area_code: areaCodeSchema,
  client_version: clientVersionSchema,
  image_address: imageAddressSchema,
} as const;
export type ConfigTableId = keyof typeof CONFIG_TABLES;
export const CONFIG_TABLE_IDS = Object.keys(CONFIG_TABLES) as ConfigTableId[];
export type ConfigRecord<T extends ConfigTableId> = z.infer<(typeof CONFIG_TABLES)[T]>;
