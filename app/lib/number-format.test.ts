import { describe, expect, it } from "vitest";
import { formatDisplayNumber } from "./number-format";

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
