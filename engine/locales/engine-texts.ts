import { FALLBACK_LANGUAGE, isLanguageCode, type LanguageCode } from "../../protocol/languages";
import { HEADERS } from "../../protocol/endpoint";
import de from "./de.json";
import en from "./en.json";
import es from "./es.json";
import fr from "./fr.json";
import jp from "./jp.json";
import kr from "./kr.json";
import tr from "./tr.json";
import zh_cn from "./zh_cn.json";
import zh_tw from "./zh_tw.json";

/**
 * Texts the engine itself writes (refusal messages, e-mails, text messages), in the language the
 * request's language header names (spec §7 sends one with every call).
 */
type Catalog = typeof en;
const CATALOGS: Record<LanguageCode, Catalog> = { zh_cn, zh_tw, en, kr, jp, es, de, fr, tr };

export type TextKey = {
  [G in keyof Catalog]: `${G & string}.${keyof Catalog[G] & string}`;
}[keyof Catalog];

export function engineText(lang: LanguageCode, key: TextKey, params: Record<string, string | number> = {}): string {
  const [group, name] = key.split(".") as [keyof Catalog, string];
  const template = (CATALOGS[lang]?.[group] as Record<string, string> | undefined)?.[name] ?? (CATALOGS.en[group] as Record<string, string>)[name] ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p] ?? ""));
}

/** Whether a string is a key of the engine's texts (`validation.symbol`), not words. */
export function isTextKey(value: string): value is TextKey {
  const [group, name, ...rest] = value.split(".");
  if (!group || !name || rest.length > 0 || !Object.hasOwn(CATALOGS.en, group)) return false;
  return Object.hasOwn(CATALOGS.en[group as keyof Catalog], name);
}

/** A message that may be a text key (a schema's, see protocol/fields.ts): the key's text, else the message itself. */
export function messageText(lang: LanguageCode, message: string): string {
  return isTextKey(message) ? engineText(lang, message) : message;
}

/** The language a request asks for (its `lang` header), else English. */
export function requestLanguage(headers: Record<string, string | string[] | undefined>): LanguageCode {
  return namedLanguage(headers) ?? FALLBACK_LANGUAGE;
}

/** The language a request's `lang` header names, if it names one (a member's language is kept only then). */
export function namedLanguage(headers: Record<string, string | string[] | undefined>): LanguageCode | undefined {
  const value = headers[HEADERS.language];
  return isLanguageCode(value) ? value : undefined;
}
