import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Messages } from "./messages";
import { registerTexts, textsOf, textsPath, type Texts } from "./texts";

/**
 * The texts of a page in its member's language (decision 034). One language's texts (the shipped
 * file overlaid with the engine's entries) reach the browser as a cached script (decision 036);
 * components read them with `useTranslation().t`, the same words on the server and in the browser.
 *
 * This is the part of i18next the pages use, and nothing else, so the browser does not download
 * i18next and react-i18next (16 KB gzip) to look up keys: nested keys (`a.b.c`), `{{name}}` values
 * and plural forms by `count` (`key_one`, `key_other`, `key_zero` for 0; `Intl.PluralRules` of the
 * language code, as i18next resolves them). A missing key reads as the key; a `{{name}}` whose value
 * was not passed stays as written. `i18n.test.ts` checks it against i18next on every shipped text.
 */
export type TranslateOptions = Record<string, unknown> & { count?: number; defaultValue?: string };
export type Translate = (key: string, options?: TranslateOptions) => string;

const pluralRules = new Map<string, Intl.PluralRules | null>();

function pluralRule(lang: string): Intl.PluralRules | null {
  let rule = pluralRules.get(lang);
  if (rule === undefined) {
    try {
      rule = new Intl.PluralRules(lang.replace("_", "-"));
    } catch {
      rule = null;
    }
    pluralRules.set(lang, rule);
  }
  return rule;
}

/** The text at a dotted key (`a.b.c`), or undefined. */
export function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

function interpolate(text: string, values: TranslateOptions | undefined): string {
  if (!values || !text.includes("{{")) return text;
  return text.replace(/\{\{-?(.+?)\}\}/g, (whole, name: string) => {
    const key = name.trim();
    if (!Object.prototype.hasOwnProperty.call(values, key)) return whole;
    const value = values[key];
    return value === undefined || value === null ? "" : String(value);
  });
}

/** A translate function over one language's texts. */
export function createTranslator(lang: string, messages: Messages): Translate {
  return (key, options) => {
    let found: string | undefined;
    if (typeof options?.count === "number") {
      const rule = pluralRule(lang);
      if (options.count === 0) found = lookup(messages, `${key}_zero`);
      if (found === undefined && rule) found = lookup(messages, `${key}_${rule.select(options.count)}`);
    }
    found ??= lookup(messages, key) ?? options?.defaultValue ?? key;
    return interpolate(found, options);
  };
}

interface I18nValue {
  t: Translate;
  i18n: { language: string };
}

const I18nContext = createContext<I18nValue>({ t: (key) => key, i18n: { language: "en" } });

/**
 * Gives the pages below the texts of `lang` at `version` (decision 036): those this process or
 * page already holds (`textsOf`: the server's, or the texts script's in the browser). When the
 * page changes language or the operator changed the texts without a reload, the browser fetches
 * the new ones and shows the texts it had meanwhile.
 */
export function PageTextsProvider({ lang, version, children }: { lang: string; version: string; children: ReactNode }) {
  const held = textsOf(lang);
  const [fetched, setFetched] = useState<Texts | undefined>(undefined);
  const current = [held, fetched].find((t) => t?.lang === lang && t.version === version);
  const texts = current ?? held ?? fetched;
  const stale = current === undefined;
  useEffect(() => {
    if (!stale) return;
    const controller = new AbortController();
    fetch(textsPath(lang, version, "json"), { signal: controller.signal })
      .then((answer) => (answer.ok ? (answer.json() as Promise<Texts>) : undefined))
      .then((loaded) => {
        if (!loaded) return;
        registerTexts(loaded);
        setFetched(loaded);
      })
      // Offline or aborted: the texts shown stay until the next page.
      .catch(() => undefined);
    return () => controller.abort();
  }, [lang, version, stale]);
  return (
    <I18nProvider lang={lang} messages={texts?.messages ?? NO_TEXTS}>
      {children}
    </I18nProvider>
  );
}

const NO_TEXTS: Messages = {};

/** Gives the pages below the texts of `lang`. */
export function I18nProvider({ lang, messages, children }: { lang: string; messages: Messages; children: ReactNode }) {
  const value = useMemo(() => ({ t: createTranslator(lang, messages), i18n: { language: lang } }), [lang, messages]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** `t` for the page's language and `i18n.language` (its code, e.g. `zh_cn`). */
export function useTranslation(): I18nValue {
  return useContext(I18nContext);
}
