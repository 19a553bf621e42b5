import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toMinor } from "#protocol/money";
import { decimalMarkOf, readDecimalInput, toInputText, type DecimalMark } from "./decimal-input";

describe("decimalMarkOf", () => {
  it.each([
    ["tr", ","],
    ["de", ","],
    ["fr", ","],
    ["es", ","],
    ["en", "."],
    ["zh_cn", "."],
    ["zh_tw", "."],
    ["jp", "."],
    ["kr", "."],
    [undefined, "."],
  ])("%s writes %j", (language, mark) => expect(decimalMarkOf(language)).toBe(mark));
});

describe("readDecimalInput (the server reads exactly what was typed, or refuses)", () => {
  const en = { scale: 6, mark: "." as const };
  const tr = { scale: 6, mark: "," as const };
  it.each([
    ["0.01", en, "0.01"],
    ["  0.01 ", en, "0.01"],
    ["0,01", tr, "0.01"],
    ["12", en, "12"],
    ["12.", en, "12"],
    ["007.500", en, "7.5"],
    ["1.000000", en, "1"], // trailing zeros beyond the scale are no extra decimal
    ["999999999999999", en, "999999999999999"],
  ])("%j is %j", (raw, rules, value) => {
    expect(readDecimalInput(raw, rules)).toEqual({ ok: true, value });
  });

  it.each([
    ["", en, "required"],
    ["   ", en, "required"],
    ["0,01", en, "wrong_mark"], // not 1, not 0.01: refused
    ["0.01", tr, "wrong_mark"], // in Turkish "." groups thousands: 1.000 is a thousand
    ["1,000", en, "wrong_mark"],
    ["1,234.5", en, "invalid"],
    ["-0.01", en, "negative"],
    ["−0.01", en, "negative"],
    ["+1", en, "invalid"],
    ["3e4", en, "invalid"],
    ["1e-3", en, "invalid"],
    ["0x10", en, "invalid"],
    ["Infinity", en, "invalid"],
    ["NaN", en, "invalid"],
    [".5", en, "invalid"], // spec §5: no leading mark
    ["1 000", en, "invalid"],
    ["１２", en, "invalid"],
    ["1.0000001", en, "decimals"],
    ["0.000000000000000000000000000001", en, "decimals"], // 30 decimals are refused, not cut
    ["1.5", { scale: 0, mark: "." as const }, "whole"],
    ["1000000000000000", en, "too_large"],
    ["0", en, "zero"],
    ["0.000", en, "zero"],
    // Issue 28: what the browser's old clean-up turned into another number is refused.
    ["1e-2", en, "invalid"],
    ["0.0.1", en, "invalid"],
    ["💰0.01", en, "invalid"],
  ])("%j is refused: %s", (raw, rules, error) => {
    expect(readDecimalInput(raw, rules)).toEqual({ ok: false, error });
  });

  it("any string it accepts denotes exactly the decimal it answers (property)", () => {
    const typed = fc.oneof(
      fc.stringMatching(/^\s?[0-9]{1,17}([.,][0-9]{0,9})?\s?$/),
      fc.string({ maxLength: 24 }),
      fc.constantFrom("-1", "1e3", "1,5", "1.5", "0", "0,0", ".", ","),
    );
    fc.assert(
      fc.property(typed, fc.constantFrom<DecimalMark>(".", ","), fc.integer({ min: 0, max: 8 }), (raw, mark, scale) => {
        const read = readDecimalInput(raw, { scale, mark });
        if (!read.ok) return;
        // What it denotes, by the grammar of the language: digits, then the language's mark.
        const text = raw.trim();
        expect(text).toMatch(mark === "." ? /^\d+(\.\d*)?$/ : /^\d+(,\d*)?$/);
        const [whole, fraction = ""] = text.split(mark);
        const denoted = BigInt(`${whole}${fraction.padEnd(scale, "0")}`);
        // Nothing cut: the fraction fits the scale once its trailing zeros go.
        expect(fraction.replace(/0+$/, "").length).toBeLessThanOrEqual(scale);
        expect(toMinor(read.value, scale) * 10n ** BigInt(Math.max(0, fraction.length - scale))).toBe(denoted);
        expect(read.value).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
        expect(/[1-9]/.test(read.value)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("a value written back into a field reads as itself", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^(0|[1-9]\d{0,14})(\.\d{0,5}[1-9])?$/), fc.constantFrom<DecimalMark>(".", ","), (value, mark) => {
        if (!/[1-9]/.test(value)) return;
        expect(readDecimalInput(toInputText(value, mark), { scale: 6, mark })).toEqual({ ok: true, value });
      }),
    );
  });
});
