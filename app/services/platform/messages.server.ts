import { createHash } from "node:crypto";
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
import { registerTexts, type Texts } from "~/lib/texts";
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

/** Texts by the messages they were made from: built once per language and change of entries. */
const textsMade = new WeakMap<Messages, { texts: Texts; script: string; json: string }>();

function made(lang: LanguageCode, messages: Messages) {
  let entry = textsMade.get(messages);
  if (!entry) {
    const json = JSON.stringify(messages);
    const version = createHash("sha256").update(json).digest("base64url").slice(0, 16);
    const texts: Texts = { lang, version, messages };
    const body = JSON.stringify(texts);
    entry = { texts, json: body, script: `window.__texts=${body};\n` };
    textsMade.set(messages, entry);
  }
  // The renderer reads the texts it is given last (an operator's change, or back to older ones).
  registerTexts(entry.texts);
  return entry;
}

/**
 * The texts of one language with their version (decision 036), also made known to this process's
 * renderer (`textsOf`). Pages send only the version; the texts go out through `textsBody`.
 */
export async function loadTexts(lang: LanguageCode): Promise<Texts> {
  return made(lang, await loadMessages(lang)).texts;
}

/** The texts of a language as served: a script that sets `window.__texts`, or the same as JSON. */
export async function textsBody(lang: LanguageCode, kind: "js" | "json"): Promise<{ version: string; body: string }> {
  const entry = made(lang, await loadMessages(lang));
  return { version: entry.texts.version, body: kind === "js" ? entry.script : entry.json };
}
