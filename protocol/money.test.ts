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

/** The conversions as first written (splits and regular expressions): the faster ones must answer the same. */
function toMinorReference(value: string, scale: number, rounding: "exact" | "down" | "up" = "exact"): bigint {
  const negative = value.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? value.slice(1) : value).split(".");
  let minor = BigInt(whole + fraction.slice(0, scale).padEnd(scale, "0"));
  if (/[1-9]/.test(fraction.slice(scale))) {
    if (rounding === "exact") throw new RangeError("more decimals");
    if (rounding === "up") minor += 1n;
  }
  return negative ? -minor : minor;
}
function fromMinorReference(minor: bigint, scale: number, trim = true): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  let fraction = digits.slice(digits.length - scale);
  if (trim) fraction = fraction.replace(/0+$/, "");
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

describe("the conversions against their first form", () => {
  it("answer the same for random amounts, scales and roundings, refusals included", () => {
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const digits = (n: number) => Array.from({ length: n }, () => String(next(10))).join("");
    for (let i = 0; i < 20_000; i++) {
      const scale = next(19);
      const whole = next(4) === 0 ? "0" : String(1 + next(9)) + digits(next(12));
      const fraction = next(3) === 0 ? "" : digits(1 + next(20));
      const value = `${next(5) === 0 ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
      for (const rounding of ["exact", "down", "up"] as const) {
        let expected: bigint | "refused";
        try {
          expected = toMinorReference(value, scale, rounding);
        } catch {
          expected = "refused";
        }
        let actual: bigint | "refused";
        try {
          actual = toMinor(value, scale, rounding);
        } catch {
          actual = "refused";
        }
        expect(actual, `${value} at ${scale} ${rounding}`).toBe(expected);
      }
      const minor = BigInt(`${next(4) === 0 ? "-" : ""}${next(5) === 0 ? "0" : digits(1 + next(25))}`);
      expect(fromMinor(minor, scale), `${minor} at ${scale}`).toBe(fromMinorReference(minor, scale));
      expect(fromMinor(minor, scale, { trim: false }), `${minor} at ${scale}, untrimmed`).toBe(fromMinorReference(minor, scale, false));
      if (minor !== 0n || scale > 0) expect(toMinor(fromMinor(minor, scale), scale)).toBe(minor);
    }
  });
});
