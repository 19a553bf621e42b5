import { describe, expect, it } from "vitest";
import { EMAIL_PATTERN, isHttpUrl, isStrongPassword, PASSWORD_PATTERN, SIX_DIGIT_CODE_PATTERN, TRADE_PASSWORD_PATTERN } from "./validation";

describe("URL rule (spec §5: must begin with http or https)", () => {
  it.each(["http://example.com", "https://example.com/a?b=c", "HTTPS://EXAMPLE.COM"])("accepts %s", (url) => {
    expect(isHttpUrl(url)).toBe(true);
  });
  it.each(["ftp://example.com", "example.com", "javascript:alert(1)", "//example.com", "https://", "http:/x", " mailto:a@b.c"])("refuses %s", (url) => {
    expect(isHttpUrl(url)).toBe(false);
  });
});

describe("other rules of spec §5", () => {
  it("e-mail needs an @ and a domain with a dot", () => {
    expect(EMAIL_PATTERN.test("a.b+c@mail.example.com")).toBe(true);
    expect(EMAIL_PATTERN.test("ab@localhost")).toBe(false);
    expect(EMAIL_PATTERN.test("ab.example.com")).toBe(false);
  });
  it("password is 6 to 20 characters of the listed classes", () => {
    expect(PASSWORD_PATTERN.test("abc123")).toBe(true);
    expect(PASSWORD_PATTERN.test("abc12")).toBe(false);
    expect(PASSWORD_PATTERN.test("a".repeat(21))).toBe(false);
    expect(PASSWORD_PATTERN.test("abc 123")).toBe(false);
  });
  it("strong password mixes two classes", () => {
    expect(isStrongPassword("abcdef")).toBe(false);
    expect(isStrongPassword("abc123")).toBe(true);
    expect(isStrongPassword("123456!")).toBe(true);
    expect(isStrongPassword("a1")).toBe(false);
  });
  it("codes and transaction passwords are six digits", () => {
    expect(SIX_DIGIT_CODE_PATTERN.test("123456")).toBe(true);
    expect(SIX_DIGIT_CODE_PATTERN.test("12345")).toBe(false);
    expect(TRADE_PASSWORD_PATTERN.test("12345a")).toBe(false);
  });
});

describe("k-line history paging", () => {
  it("takes a millisecond time as `to` and refuses what is not one", async () => {
    const { marketDataEndpoints } = await import("./endpoints/market-data");
    const query = marketDataEndpoints.klineHistory.query;
    const now = Date.parse("2026-11-23T06:00:00Z");
    expect(query.parse({ symbol: "BTC_USDT", period: "1m", to: String(now) }).to).toBe(now);
    for (const to of ["-1", "1.5", "17953872000000000", "soon"]) expect(query.safeParse({ symbol: "BTC_USDT", period: "1m", to }).success, to).toBe(false);
  });
});
