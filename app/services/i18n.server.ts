import i18next, { type TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { FALLBACK_LANGUAGE, LANGUAGE_CODES, type LanguageCode } from "#protocol/languages";
import { deploymentVariant } from "./env.server";
import { loadMessages } from "./messages.server";
import { languageCookie } from "./preferences.server";
import { loadSite } from "./site.server";

/**
 * Language detection (remix-i18next): the visitor's `lang` cookie, else the site's configured
 * default language (spec §1: "the product defaults come from configuration").
 */
export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...LANGUAGE_CODES],
    fallbackLanguage: FALLBACK_LANGUAGE,
    cookie: languageCookie,
    order: ["cookie", "custom"],
    async findLocale() {
      try {
        return (await loadSite()).config.defaultLanguage;
      } catch {
        return deploymentVariant().language;
      }
    },
  },
});

export async function detectLanguage(request: Request): Promise<LanguageCode> {
  return (await i18nServer.getLocale(request)) as LanguageCode;
}

/** A translate function for server-side texts (page titles, action messages). */
export async function getTranslator(lang: LanguageCode): Promise<TFunction> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: lang,
    fallbackLng: FALLBACK_LANGUAGE,
    resources: {
      [lang]: { translation: await loadMessages(lang) },
      ...(lang === FALLBACK_LANGUAGE ? {} : { [FALLBACK_LANGUAGE]: { translation: await loadMessages(FALLBACK_LANGUAGE) } }),
    },
    interpolation: { escapeValue: false },
  });
  return instance.t;
}
