import type { Messages } from "./messages";

/**
 * One language's texts as the browser keeps them (decision 036): the shipped file overlaid with
 * the engine's entries, and a version that changes whenever they do. They travel once per
 * language and version, as a script the browser caches (`/texts/{lang}/{version}.js`), instead
 * of inside every page's loader data.
 */
export interface Texts {
  lang: string;
  version: string;
  messages: Messages;
}

declare global {
  interface Window {
    /** Set by the texts script (`/texts/{lang}/{version}.js`) before the page's modules run. */
    __texts?: Texts;
  }
}

/** The newest texts known in this process (server) or page (browser), by language. */
const known = new Map<string, Texts>();

export function registerTexts(texts: Texts): void {
  known.set(texts.lang, texts);
}

/** A language's texts: registered, or in the browser those the page started with (`window.__texts`). */
export function textsOf(lang: string): Texts | undefined {
  const registered = known.get(lang);
  if (registered || typeof window === "undefined") return registered;
  return window.__texts?.lang === lang ? window.__texts : undefined;
}

/** Where one version of a language's texts is served: a script (`js`) or the same as JSON (`json`). */
export function textsPath(lang: string, version: string, kind: "js" | "json" = "js"): string {
  return `/texts/${lang}/${version}.${kind}`;
}
