import i18next, { type i18n } from "i18next";
import { useMemo } from "react";
import { initReactI18next } from "react-i18next";
import type { Messages } from "./messages";

/**
 * One i18next instance per language, built from the texts the root loader sent (the shipped file
 * overlaid with the engine's entries), so server and browser render the same words and the
 * browser fetches no locale file. A language change reloads the document (spec §4).
 */
export function useI18nInstance(lang: string, messages: Messages): i18n {
  return useMemo(() => {
    const instance = i18next.createInstance();
    void instance.use(initReactI18next).init({
      lng: lang,
      fallbackLng: false,
      resources: { [lang]: { translation: messages } },
      initImmediate: false,
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
      returnNull: false,
    });
    return instance;
  }, [lang, messages]);
}
