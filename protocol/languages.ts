/** The nine product languages (spec §1), in the codes the product uses on the wire and in files. */
export const LANGUAGE_CODES = ["zh_cn", "zh_tw", "en", "kr", "jp", "es", "de", "fr", "tr"] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export const FALLBACK_LANGUAGE: LanguageCode = "en";

/** BCP 47 tag for `<html lang>` and Intl, since the product codes (kr, jp, zh_cn) are not tags. */
export const LANGUAGE_TAGS: Record<LanguageCode, string> = {
  zh_cn: "zh-CN",
  zh_tw: "zh-TW",
  en: "en",
  kr: "ko",
  jp: "ja",
  es: "es",
  de: "de",
  fr: "fr",
  tr: "tr",
};

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === "string" && (LANGUAGE_CODES as readonly string[]).includes(value);
}
