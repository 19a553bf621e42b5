import { describe, expect, it } from "vitest";
import { formatDisplayNumber, formatFixedNumber, numberFormatOf, numberMarksOf, withDecimalMark } from "./number-format";

describe("formatDisplayNumber (spec §5 number display)", () => {
  it.each([
    ["0.123456789", "0.12345678"], // below 1: up to 8 decimals, cut not rounded
    ["0.5", "0.5"],
    ["0.00000001", "0.00000001"],
    ["0.000000009", "0"],
    ["1.23456789", "1.234567"], // 1 to 10: 6
    ["9.9999999", "9.999999"],
    ["10.1234567", "10.12345"], // 10 to 100: 5
    ["99.999999", "99.99999"],
    ["100.123456", "100.1234"], // then fewer
    ["1234.56789", "1,234.567"],
    ["12345.6789", "12,345.67"],
    ["999999.999", "999,999.99"],
    ["1000000", "1M"], // millions
    ["1234567.89", "1.23M"],
    ["987654321", "987.65M"],
    ["1500000000", "1.5B"], // billions
    ["2000000000000", "2T"], // trillions
    ["-1.5", "-1.5"],
    ["0010.50", "10.5"],
    ["3", "3"],
  ])("%s shows as %s", (input, expected) => {
    expect(formatDisplayNumber(input)).toBe(expected);
  });

  it("shows -- for anything that is not a decimal number", () => {
    expect(formatDisplayNumber(null)).toBe("--");
    expect(formatDisplayNumber("abc")).toBe("--");
    expect(formatDisplayNumber("1e5")).toBe("--");
  });

  it("can leave out the separator and the abbreviation", () => {
    expect(formatDisplayNumber("1234567.891", { separator: "", abbreviate: false })).toBe("1234567.89");
  });

  it("never shows a negative zero", () => {
    expect(formatDisplayNumber("-0.000000001")).toBe("0");
  });
});

describe("number marks of each language", () => {
  const NNBSP = "\u202F";
  it.each([
    ["zh_cn", "1,234,567.5"],
    ["zh_tw", "1,234,567.5"],
    ["en", "1,234,567.5"],
    ["kr", "1,234,567.5"],
    ["jp", "1,234,567.5"],
    ["es", "1.234.567,5"],
    ["de", "1.234.567,5"],
    ["tr", "1.234.567,5"],
    ["fr", `1${NNBSP}234${NNBSP}567,5`],
  ])("%s writes %s", (lang, expected) => {
    expect(formatDisplayNumber("1234567.5", { ...numberMarksOf(lang), abbreviate: false })).toBe(expected);
    expect(numberFormatOf(lang).display("1234567.5", { abbreviate: false })).toBe(expected);
  });

  it("falls back to English marks for an unknown or missing language", () => {
    expect(numberMarksOf(undefined)).toEqual({ separator: ",", decimal: "." });
    expect(numberMarksOf("xx")).toEqual({ separator: ",", decimal: "." });
  });

  it("keeps the §5 rules in every language: magnitude decimals, cut not rounded, abbreviations", () => {
    const tr = numberFormatOf("tr");
    expect(tr.display("9799.995")).toBe("9.799,995");
    expect(tr.display("0.123456789")).toBe("0,12345678");
    expect(tr.display("1234567.89")).toBe("1,23M");
    expect(tr.display("-1234.5")).toBe("-1.234,5");
    expect(tr.display("12")).toBe("12");
    expect(tr.display(null)).toBe("--");
    expect(numberFormatOf("fr").display("1500000000")).toBe("1,5B");
  });

  it("writes the mark of an already shaped number, nothing else", () => {
    expect(withDecimalMark("+1.25%", ",")).toBe("+1,25%");
    expect(withDecimalMark("-0.5", ",")).toBe("-0,5");
    expect(withDecimalMark("0%", ",")).toBe("0%");
    expect(withDecimalMark("+1.25%", ".")).toBe("+1.25%");
    expect(numberFormatOf("de").mark("0.1")).toBe("0,1");
  });
});

describe("formatFixedNumber (a market's decimals, no ragged trimming)", () => {
  it.each([
    ["64000.5", 2, "64,000.50"], // padded to the price decimals
    ["64000", 2, "64,000.00"],
    ["64000.129", 2, "64,000.12"], // cut, never rounded up
    ["0.0123", 6, "0.012300"],
    ["0.1234567", 6, "0.123456"],
    ["1234567890.5", 2, "1,234,567,890.50"], // never abbreviated
    ["12.5", 0, "12"],
    ["0010.5", 1, "10.5"],
    ["-1.5", 2, "-1.50"],
    ["-0.001", 2, "0.00"], // no negative zero
    ["123456789012345678901234567890.123456789", 8, "123,456,789,012,345,678,901,234,567,890.12345678"], // exact: no JS number
  ])("%s at %i decimals shows as %s", (input, scale, expected) => {
    expect(formatFixedNumber(input, scale)).toBe(expected);
  });

  it("writes the language's marks", () => {
    expect(formatFixedNumber("64000.5", 2, numberMarksOf("tr"))).toBe("64.000,50");
    expect(formatFixedNumber("64000.5", 2, numberMarksOf("fr"))).toBe("64\u202F000,50");
    expect(numberFormatOf("de").fixed("0.01", 6)).toBe("0,010000");
    expect(numberFormatOf("en").fixed("64000.5", 2)).toBe("64,000.50");
  });

  it("shows -- for anything that is not a decimal number", () => {
    expect(formatFixedNumber(null, 2)).toBe("--");
    expect(formatFixedNumber(undefined, 2)).toBe("--");
    expect(formatFixedNumber("1e5", 2)).toBe("--");
    expect(formatFixedNumber("", 2)).toBe("--");
  });

  it("lines up: every row of a column has the same decimals", () => {
    const column = ["64000.5", "64001", "63999.25"].map((p) => formatFixedNumber(p, 2, numberMarksOf("tr")));
    expect(column).toEqual(["64.000,50", "64.001,00", "63.999,25"]);
    expect(new Set(column.map((c) => c.length)).size).toBe(1);
  });
});
