import { describe, expect, it } from "vitest";
import { parseSiteConfig } from "#protocol/site-config";
import { toDisplayMoney } from "./display-currency";
import { numberMarksOf } from "./number-format";
import { preferenceSchema } from "./preference-schema";
import { stripHtml } from "./strip-html";
import { createToastThrottle } from "./toast-throttle";

describe("error toast throttle (spec §8: at most one per 2 s)", () => {
  it("lets one toast through per 2 seconds", () => {
    const gate = createToastThrottle();
    expect(gate(1_000)).toBe(true);
    expect(gate(1_500)).toBe(false);
    expect(gate(2_999)).toBe(false);
    expect(gate(3_000)).toBe(true);
  });
});

describe("stripHtml", () => {
  it("removes tags and keeps the words", () => {
    expect(stripHtml("<div>Cancel <em>success</em></div>")).toBe("Cancel success");
    expect(stripHtml("a &lt;b&gt; c")).toBe("a b c");
    expect(stripHtml(42)).toBeNull();
  });
});

describe("preference form schema", () => {
  it("accepts the three switches", () => {
    expect(preferenceSchema.safeParse({ intent: "language", value: "de", redirectTo: "/home/index" }).success).toBe(true);
    expect(preferenceSchema.safeParse({ intent: "theme", value: "theme-day", redirectTo: "/" }).success).toBe(true);
    expect(preferenceSchema.safeParse({ intent: "currency", value: "eur", redirectTo: "/" }).success).toBe(true);
  });
  it("refuses unknown values", () => {
    expect(preferenceSchema.safeParse({ intent: "language", value: "xx", redirectTo: "/" }).success).toBe(false);
    expect(preferenceSchema.safeParse({ intent: "theme", value: "pink", redirectTo: "/" }).success).toBe(false);
  });
  it("never redirects off the site", () => {
    for (const target of ["//evil.example", "https://evil.example", "/\\evil.example", "javascript:x"]) {
      const parsed = preferenceSchema.parse({ intent: "theme", value: "theme-day", redirectTo: target });
      expect(parsed.redirectTo).toBe("/home/index");
    }
  });
});

describe("site configuration parsing (spec §8: parse failures fall back to defaults)", () => {
  it("reads good rows and falls back per key on bad ones", () => {
    const config = parseSiteConfig([
      { config_key: "siteName", config_value: "Test Exchange" },
      { config_key: "defaultLanguage", config_value: "klingon" },
      { config_key: "socialLinks", config_value: "{not json" },
      { config_key: "tokenTime", config_value: "604800" },
      { config_key: "returnApplyEnabled", config_value: "true" },
    ]);
    expect(config.siteName).toBe("Test Exchange");
    expect(config.defaultLanguage).toBe("en");
    expect(config.socialLinks).toEqual([]);
    expect(config.tokenTime).toBe(604800);
    expect(config.returnApplyEnabled).toBe(true);
  });

  it("bounds the session settings and reads the support switch (decision 032)", () => {
    const parse = (rows: Array<[string, string]>) => parseSiteConfig(rows.map(([config_key, config_value]) => ({ config_key, config_value })));
    expect(
      parse([
        ["tokenTime", "3600"],
        ["cookieDays", "30"],
      ]),
    ).toMatchObject({ tokenTime: 3600, cookieDays: 30 });
    // Below the least (10 s: the web tier refreshes 10 s before expiry) or not a whole number: the default.
    expect(
      parse([
        ["tokenTime", "1"],
        ["cookieDays", "0"],
      ]),
    ).toMatchObject({ tokenTime: 604800, cookieDays: 7 });
    expect(
      parse([
        ["tokenTime", "12.5"],
        ["cookieDays", "seven"],
      ]),
    ).toMatchObject({ tokenTime: 604800, cookieDays: 7 });
    expect(parse([["supportEnabled", "false"]]).supportEnabled).toBe(false);
    expect(parse([["supportEnabled", "true"]]).supportEnabled).toBe(true);
    expect(parse([["supportEnabled", "0"]]).supportEnabled).toBe(false);
    expect(parse([["supportEnabled", " Off "]]).supportEnabled).toBe(false);
    expect(parse([["supportEnabled", "yes"]]).supportEnabled).toBe(true);
    // Unreadable: on (the default).
    expect(parse([["supportEnabled", "maybe"]]).supportEnabled).toBe(true);
    expect(parse([]).supportEnabled).toBe(true);
  });
});

describe("display currency", () => {
  it("converts a USDT price exactly and formats it", () => {
    expect(toDisplayMoney("64000.5", { code: "eur", quote: "EUR", symbol: "€", rate: "0.92" })).toBe("€58,880.46");
    expect(toDisplayMoney(null, { code: "usd", quote: "USD", symbol: "$", rate: "1" })).toBe("--");
    // In the member's language.
    expect(toDisplayMoney("1000.5", { code: "try", quote: "TRY", symbol: "₺", rate: "34.2" }, numberMarksOf("tr"))).toBe("₺34.217,10");
    // Issue 28 §4: fiat from 1 up with exactly two decimals, cut; below 1 by the display rule; a million abbreviated.
    expect(toDisplayMoney("2699.9425", { code: "eur", quote: "EUR", symbol: "€", rate: "1" })).toBe("€2,699.94");
    expect(toDisplayMoney("860.2", { code: "eur", quote: "EUR", symbol: "€", rate: "1" })).toBe("€860.20");
    expect(toDisplayMoney("0.00001234", { code: "usd", quote: "USD", symbol: "$", rate: "1" })).toBe("$0.00001234");
    expect(toDisplayMoney("1234567.5", { code: "usd", quote: "USD", symbol: "$", rate: "1" })).toBe("$1.23M");
  });

  it("puts a space after a symbol that is a word, as after every unit, and none after a sign", () => {
    expect(toDisplayMoney("12.5", { code: "chf", quote: "CHF", symbol: "CHF", rate: "1" }, numberMarksOf("de"))).toBe("CHF 12,50");
    expect(toDisplayMoney("12.5", { code: "hkd", quote: "HKD", symbol: "HK$", rate: "1" })).toBe("HK$12.50");
    expect(toDisplayMoney("12.5", { code: "jpy", quote: "JPY", symbol: "JP¥", rate: "1" })).toBe("JP¥12.50");
  });
});
