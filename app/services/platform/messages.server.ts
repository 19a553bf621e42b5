import { endpoints } from "#protocol/endpoints";
import type { LanguageCode } from "#protocol/languages";
import { applyLanguageEntries, type Messages } from "~/lib/messages";
import de from "~/locales/de.json";
import en from "~/locales/en.json";
import es from "~/locales/es.json";
import fr from "~/locales/fr.json";
import jp from "~/locales/jp.json";
import kr from "~/locales/kr.json";
import tr from "~/locales/tr.json";
import zh_cn from "~/locales/zh_cn.json";
import zh_tw from "~/locales/zh_tw.json";
import { callEndpoint } from "../engine/api.server";
import { createCache } from "./cache.server";

/** Shipped texts, one file per language (`app/locales/{code}.json`). */
export const LOCALE_FILES: Record<LanguageCode, Messages> = { zh_cn, zh_tw, en, kr, jp, es, de, fr, tr };

/** Asked again after 5 s; unchanged entries come back "not modified" and keep the texts as they were (decision 035). */
const messageCache = createCache<Messages>(() => 5_000);
const builtFrom = new Map<LanguageCode, { entries: unknown; messages: Messages }>();

/**
 * The texts of one language: the shipped file overlaid with the engine's language entries
 * (`coin/open/lang/{lang}`). If the entries cannot be read the shipped texts are used alone.
 */
export function loadMessages(lang: LanguageCode): Promise<Messages> {
  return messageCache.get(lang, async () => {
    const base = LOCALE_FILES[lang];
    try {
      const entries = await callEndpoint(endpoints.languageEntries, { params: { lang } }, { lang });
      const built = builtFrom.get(lang);
      if (built?.entries === entries) return built.messages;
      const { messages, skipped } = applyLanguageEntries(base, entries);
      if (skipped) console.warn(`skipped ${skipped} language entries of ${lang}`);
      builtFrom.set(lang, { entries, messages });
      return messages;
    } catch (error) {
      console.warn(`language entries of ${lang} unavailable: ${(error as Error).message}`);
      return base;
    }
  });
}
