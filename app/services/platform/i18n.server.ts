import i18next, { type TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { FALLBACK_LANGUAGE, isLanguageCode, LANGUAGE_CODES, LANGUAGE_TAGS, type LanguageCode } from "#protocol/languages";
import { deploymentVariant } from "./env.server";
import { loadMessages } from "./messages.server";
import { languageCookie } from "./preferences.server";
import { loadSite } from "./site.server";

/**
 * Language detection (remix-i18next): the visitor's `lang` cookie, else the site's configured
 * default language (spec §1: "the product defaults come from configuration").
 * NOTE: the product's codes (zh_cn, zh_tw, kr, jp) are not BCP 47 tags and remix-i18next matches
 * tags, so detection works on tags (zh-CN, ko, ja) and `detectLanguage` maps back to the code.
 * NOTE: visitors' pages are shared by the page cache (server/page-cache.mjs, decision 038), whose
 * key holds the `lang` cookie and not `Accept-Language`: reading another header here means
 * adding it to that key.
 */
const CODE_BY_TAG = new Map(LANGUAGE_CODES.map((code) => [LANGUAGE_TAGS[code], code]));

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: LANGUAGE_CODES.map((code) => LANGUAGE_TAGS[code]),
    fallbackLanguage: LANGUAGE_TAGS[FALLBACK_LANGUAGE],
    order: ["custom"],
    async findLocale(request) {
      const chosen = await languageCookie.parse(request.headers.get("cookie"));
      if (isLanguageCode(chosen)) return LANGUAGE_TAGS[chosen];
      try {
        return LANGUAGE_TAGS[(await loadSite()).config.defaultLanguage];
      } catch {
        return LANGUAGE_TAGS[deploymentVariant().language];
      }
    },
  },
});

export async function detectLanguage(request: Request): Promise<LanguageCode> {
  return CODE_BY_TAG.get(await i18nServer.getLocale(request)) ?? FALLBACK_LANGUAGE;
}

/** Translators by the texts they read: one i18next instance per language and change of texts, not one per request. */
const translators = new WeakMap<object, { fallback: object; t: TFunction }>();

/** A translate function for server-side texts (page titles, action messages). */
export async function getTranslator(lang: LanguageCode): Promise<TFunction> {
  const [own, fallback] = await Promise.all([loadMessages(lang), loadMessages(FALLBACK_LANGUAGE)]);
  const known = translators.get(own);
  if (known?.fallback === fallback) return known.t;
  const instance = i18next.createInstance();
  await instance.init({
    lng: lang,
    fallbackLng: FALLBACK_LANGUAGE,
    resources: {
      [lang]: { translation: own },
      ...(lang === FALLBACK_LANGUAGE ? {} : { [FALLBACK_LANGUAGE]: { translation: fallback } }),
    },
    interpolation: { escapeValue: false },
  });
  translators.set(own, { fallback, t: instance.t });
  return instance.t;
}
