import { describe, expect, it } from "vitest";
import { compareDecimal, fromMinor, multiplyDecimal, toMinor } from "./money";

describe("decimal money helpers", () => {
  it("converts to and from minor units exactly", () => {
    expect(toMinor("12.5", 8)).toBe(1_250_000_000n);
    expect(fromMinor(1_250_000_000n, 8)).toBe("12.5");
    expect(toMinor("-0.00000001", 8)).toBe(-1n);
    expect(fromMinor(-1n, 8)).toBe("-0.00000001");
    expect(toMinor("123456789012345678901234567890", 0)).toBe(123456789012345678901234567890n);
  });
  it("refuses extra decimals unless told how to round", () => {
    expect(() => toMinor("0.123", 2)).toThrow(/more than 2 decimals/);
    expect(toMinor("0.129", 2, "down")).toBe(12n);
    expect(toMinor("0.121", 2, "up")).toBe(13n);
    expect(toMinor("0.120", 2)).toBe(12n);
  });
  it("refuses what is not a decimal string", () => {
    for (const bad of ["1e3", "+1", "01", "1.", ".5", "NaN", ""]) expect(() => toMinor(bad, 8)).toThrow();
  });
  it("multiplies and compares without floating point", () => {
    expect(multiplyDecimal("0.1", "0.2", 8)).toBe("0.02");
    expect(multiplyDecimal("64000.12", "0.92", 8)).toBe("58880.1104");
    expect(compareDecimal("0.30", "0.3")).toBe(0);
    expect(compareDecimal("1.000000001", "1")).toBe(1);
  });
});
