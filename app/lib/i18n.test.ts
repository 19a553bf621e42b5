import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { createTranslator } from "./i18n";
import type { Messages } from "./messages";

const LOCALES = path.resolve(__dirname, "../locales");

function keysOf(messages: Messages, prefix = ""): string[] {
  return Object.entries(messages).flatMap(([k, v]) => (typeof v === "string" ? [prefix + k] : keysOf(v, `${prefix}${k}.`)));
}

/** Every shipped text of every language reads as i18next (the server's translator) reads it. */
describe("createTranslator", () => {
  for (const file of readdirSync(LOCALES).filter((f) => f.endsWith(".json"))) {
    const lang = file.replace(/\.json$/, "");
    it(`reads ${lang} as i18next does`, async () => {
      const messages = JSON.parse(readFileSync(path.join(LOCALES, file), "utf8")) as Messages;
      const reference = i18next.createInstance();
      await reference.init({ lng: lang, fallbackLng: false, resources: { [lang]: { translation: messages } }, interpolation: { escapeValue: false } });
      const t = createTranslator(lang, messages);
      const keys = keysOf(messages);
      // Each key, and each plural stem (`hidden` of `hidden_one`), with values for every placeholder
      // and without them, at the counts where plural forms differ.
      const stems = [...new Set(keys.map((k) => k.replace(/_(zero|one|two|few|many|other)$/, "")))];
      const names = [...JSON.stringify(messages).matchAll(/\{\{-?\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
      const values = Object.fromEntries(names.map((n) => [n, `<${n}>`]));
      for (const key of stems) {
        for (const options of [undefined, values, { ...values, count: 0 }, { ...values, count: 1 }, { ...values, count: 2 }, { ...values, count: 5 }]) {
          expect(t(key, options), `${lang} ${key} ${JSON.stringify(options)}`).toBe(reference.t(key, options as Record<string, unknown>));
        }
      }
      expect(t("no.such.key")).toBe(reference.t("no.such.key"));
      expect(t("no.such.key", { defaultValue: "fallback" })).toBe("fallback");
    });
  }
});
