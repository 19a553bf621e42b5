import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Rules of the copy that hold in every catalog: the web's (app/locales) and the engine's
 * (engine/locales: refusals, e-mails, notices), read here as files.
 *
 * 1. One case style per language. English, Spanish, French and Turkish write buttons, menu items,
 *    titles and sentences in sentence case ("Log in", "Account info", "Order history"): a word
 *    after the first of a sentence is capitalised only when it is a proper noun, a product name
 *    or an acronym. German capitalises its nouns by grammar, and Chinese, Japanese and Korean
 *    have no case, so the rule does not read them.
 * 2. A number and its unit are two words: `{{amount}} {{coin}}`, `5 MB`, never `0,01BTC`.
 */

const CATALOGS = [path.resolve(__dirname, "../locales"), path.resolve(__dirname, "../../engine/locales")];

interface Text {
  file: string;
  lang: string;
  key: string;
  value: string;
}

function textsOf(messages: unknown, prefix = ""): Array<[string, string]> {
  return Object.entries(messages as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === "string" ? [[prefix + k, v] as [string, string]] : textsOf(v, `${prefix}${k}.`),
  );
}

const TEXTS: Text[] = CATALOGS.flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .flatMap((f) => {
      const file = path.relative(path.resolve(__dirname, "../.."), path.join(dir, f));
      const messages: unknown = JSON.parse(readFileSync(path.join(dir, f), "utf8"));
      return textsOf(messages).map(([key, value]) => ({ file, lang: f.replace(/\.json$/, ""), key, value }));
    }),
);

/** Names that keep their capitals in every language: products and brands (acronyms such as KYC, 2FA, API or USDT are all capitals and never read as Title Case). */
const PROPER_NAMES = ["Meridian Exchange", "Google Authenticator", "Google", "Pulse Pick"];

/** Unit symbols written with a capital (French kilo-, méga-, gigaoctet): allowed after a number ("5 Mo", "{{size}} Ko"). */
const UNIT_SYMBOLS = ["Ko", "Mo", "Go"];

/** Capitalised words a language writes so by its own rules. */
const LANGUAGE_WORDS: Record<string, string[]> = {
  en: [],
  es: [],
  fr: [],
  // "No": numara, abbreviated with its capital (TDK), as in the CSV column "Satır No".
  tr: ["No"],
};

/**
 * The capitalised words of a text that do not start a sentence (after `.`, `!`, `?` or `:`), a
 * quotation or a bracket, and are not a name: the Title Case the rule forbids. A word is
 * capitalised when an upper-case letter is followed by a lower-case one (`Log In`'s "In"; not
 * "USDT-M", "1H" or "ID").
 */
function titleCaseWords(value: string, allowed: string[]): string[] {
  let text = value.replace(/\{\{[^}]*\}\}/g, "0");
  for (const name of PROPER_NAMES) text = text.replaceAll(name, "0");
  return [...text.matchAll(/(?<=^|[\s(/“"«‘-])(\p{Lu}\p{Ll}+)/gu)]
    .filter((m) => {
      const before = text.slice(0, m.index).trimEnd();
      const unit = UNIT_SYMBOLS.includes(m[1]!) && /\d$/.test(before);
      return before !== "" && !/[.!?:“"«‘([\]]$/u.test(before) && !allowed.includes(m[1]!) && !unit;
    })
    .map((m) => m[1]!);
}

describe("copy: one case style per language", () => {
  it("reads a sentence-case text as such, and finds Title Case", () => {
    expect(titleCaseWords("Log in", [])).toEqual([]);
    expect(titleCaseWords("Log In", [])).toEqual(["In"]);
    expect(titleCaseWords("Fees & Rates", [])).toEqual(["Rates"]);
    expect(titleCaseWords("Please Enter Price", [])).toEqual(["Enter", "Price"]);
    expect(titleCaseWords("Kripto Satın Al", [])).toEqual(["Satın", "Al"]);
    expect(titleCaseWords("İşlem Kuralları", [])).toEqual(["Kuralları"]);
    // Names, acronyms, units and the start of a sentence, a quotation or a bracketed tag keep their capitals.
    expect(titleCaseWords("Bind Google Authenticator", [])).toEqual([]);
    expect(titleCaseWords("USDT-M contracts, KYC and 2FA", [])).toEqual([]);
    expect(titleCaseWords("Order placed. It is in the book: Reason here", [])).toEqual([]);
    expect(titleCaseWords("such as “My hardware wallet”.", [])).toEqual([]);
    expect(titleCaseWords("[{{site}}] Priority support request", [])).toEqual([]);
    expect(titleCaseWords("Available: {{amount}} {{coin}}", [])).toEqual([]);
    expect(titleCaseWords("Une image ne doit pas dépasser 5 Mo.", [])).toEqual([]);
    expect(titleCaseWords("Taille : {{size}} Ko", [])).toEqual([]);
    expect(titleCaseWords("Choisir Mo fichier", [])).toEqual(["Mo"]);
  });

  for (const [lang, allowed] of Object.entries(LANGUAGE_WORDS)) {
    it(`writes ${lang} in sentence case`, () => {
      const texts = TEXTS.filter((t) => t.lang === lang);
      expect(texts.length).toBeGreaterThan(100);
      const titleCase = texts
        .map((t) => ({ at: `${t.file} ${t.key}`, value: t.value, words: titleCaseWords(t.value, allowed) }))
        .filter((t) => t.words.length > 0);
      expect(titleCase).toEqual([]);
    });
  }
});

/** Placeholders that stand for a unit: a coin, a market's quote unit, a display currency. */
const UNIT_PLACEHOLDER = /^(coin|unit|currency|quote|base|symbol)$/;

/** Where a number (digits or a placeholder) touches the unit after it: `{{amount}}{{coin}}`, `{{value}}BTC`, `5MB`. */
function gluedUnits(value: string): string[] {
  const placeholders = [...value.matchAll(/\{\{\s*\w+\s*\}\}\{\{\s*(\w+)\s*\}\}/g)].filter((m) => UNIT_PLACEHOLDER.test(m[1]!)).map((m) => m[0]);
  const symbols = [...value.matchAll(/(?:\d|\}\})[A-Z]{2,}\b/g)].map((m) => m[0]);
  return [...placeholders, ...symbols];
}

describe("copy: a number and its unit are two words", () => {
  it("finds a glued unit", () => {
    expect(gluedUnits("{{amount}}{{coin}}")).toEqual(["{{amount}}{{coin}}"]);
    expect(gluedUnits("{{value}}BTC")).toEqual(["}}BTC"]);
    expect(gluedUnits("画像のサイズは5MB以内")).toEqual(["5MB"]);
    expect(gluedUnits("{{amount}} {{coin}}, 5 MB, {{value}} BTC, 1H, 24h, %{{value}}")).toEqual([]);
  });

  it("has a space between every number and its unit, in every catalog", () => {
    expect(TEXTS.length).toBeGreaterThan(1000);
    const glued = TEXTS.map((t) => ({ at: `${t.file} ${t.key}`, value: t.value, glued: gluedUnits(t.value) })).filter((t) => t.glued.length > 0);
    expect(glued).toEqual([]);
  });
});
