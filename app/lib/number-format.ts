import { fromMinor, isDecimalString, toMinor } from "#protocol/decimal";
import { decimalMarkOf, type DecimalMark } from "#protocol/decimal-input";

/**
 * Number display of spec §5: below 1 up to 8 decimals; 1 to 10 up to 6; 10 to 100 up to 5; then
 * fewer (100–1,000: 4; 1,000–10,000: 3; 10,000–1,000,000: 2); millions, billions and trillions
 * as M, B and T with 2 decimals. Input is a decimal string; digits past the allowed decimals are
 * cut, never rounded up, so a balance is never shown larger than it is. Trailing zeros are trimmed.
 *
 * Numbers are written with the marks of the member's language ({@link numberMarksOf}); the
 * functions here are pure, and `useNumberFormat` (use-number-format.ts) binds them to the page's
 * language. Machine-readable output (CSV, input values) never goes through here.
 */

const UNITS: Array<[digits: number, suffix: string]> = [
  [12, "T"],
  [9, "B"],
  [6, "M"],
];

/** Decimals allowed for a value whose whole part has `wholeDigits` digits (its magnitude). */
function decimalsFor(whole: string): number {
  if (whole === "0") return 8;
  const digits = whole.length;
  if (digits === 1) return 6; // 1 to 10
  if (digits === 2) return 5; // 10 to 100
  if (digits === 3) return 4;
  if (digits === 4) return 3;
  return 2;
}

function group(whole: string, separator: string): string {
  return separator ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, separator) : whole;
}

/** How a language writes numbers: the thousands separator and the decimal mark. */
export interface NumberMarks {
  separator: string;
  decimal: DecimalMark;
}

/** French groups with a narrow no-break space (U+202F), so a number never breaks across lines. */
const NARROW_NO_BREAK_SPACE = "\u202F";

/**
 * The marks a member of `language` (a product code) reads: `1,234.5` in zh_cn, zh_tw, en, kr and
 * jp; `1.234,5` in es, de and tr; `1 234,5` in fr. The decimal mark is the one the member types
 * in number fields (decimal-input.ts), so what is shown and what is typed agree.
 */
export function numberMarksOf(language: string | undefined): NumberMarks {
  const decimal = decimalMarkOf(language);
  if (language === "fr") return { separator: NARROW_NO_BREAK_SPACE, decimal };
  return { separator: decimal === "," ? "." : ",", decimal };
}

/** English marks: what a caller gets when it names none. */
const ENGLISH: NumberMarks = { separator: ",", decimal: "." };

export interface DisplayOptions {
  /** Thousands separator; empty string for none (default `,`). */
  separator?: string;
  /** Decimal mark (default `.`). */
  decimal?: DecimalMark;
  /** Abbreviate millions and above with M, B, T (default true). */
  abbreviate?: boolean;
}

/** Writes a sign, a whole part (grouped) and a fraction with the given marks; never "-0". */
function compose(negative: boolean, whole: string, fraction: string, separator: string, decimal: string, suffix = ""): string {
  const result = `${group(whole, separator)}${fraction ? `${decimal}${fraction}` : ""}${suffix}`;
  return negative && /[1-9]/.test(whole + fraction) ? `-${result}` : result;
}

/** Formats a decimal string for display; anything that is not a decimal number shows as "--". */
export function formatDisplayNumber(value: string | null | undefined, options: DisplayOptions = {}): string {
  const { separator = ENGLISH.separator, decimal = ENGLISH.decimal, abbreviate = true } = options;
  if (value == null || !/^-?\d+(\.\d+)?$/.test(value.trim())) return "--";
  const text = value.trim();
  const negative = text.startsWith("-");
  const [rawWhole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const whole = rawWhole.replace(/^0+(?=\d)/, "");
  const unit = abbreviate ? UNITS.find(([digits]) => whole.length > digits) : undefined;
  if (unit) {
    const [digits, suffix] = unit;
    const head = whole.slice(0, whole.length - digits);
    const tail = whole.slice(whole.length - digits, whole.length - digits + 2).replace(/0+$/, "");
    return compose(negative, head, tail, separator, decimal, suffix);
  }
  const kept = fraction.slice(0, decimalsFor(whole)).replace(/0+$/, "");
  return compose(negative, whole, kept, separator, decimal);
}

/**
 * Formats a decimal string with exactly `scale` decimals (a market's price or amount decimals),
 * grouped, never abbreviated: extra digits are cut (never rounded up) and missing ones padded
 * with zeros, so every row of a column has the same decimals and the columns line up.
 * Anything that is not a decimal number shows as "--".
 */
export function formatFixedNumber(value: string | null | undefined, scale: number, options: Omit<DisplayOptions, "abbreviate"> = {}): string {
  const { separator = ENGLISH.separator, decimal = ENGLISH.decimal } = options;
  const text = value?.trim().replace(/^(-?)0+(?=\d)/, "$1");
  if (text == null || !isDecimalString(text)) return "--";
  // Minor units (bigint) keep every digit exact: an amount is never a JS number.
  const exact = fromMinor(toMinor(text, scale, "down"), scale, { trim: false });
  const negative = exact.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? exact.slice(1) : exact).split(".");
  return compose(negative, whole, fraction, separator, decimal);
}

/**
 * A percentage change as every list and ticker writes it (issue 28 §4): exactly two decimals, cut
 * toward zero, with its sign (`+0.90%`, `-3.31%`, `0.00%`; never `-0.00%`), in English marks
 * (a page writes its language's mark with `withDecimalMark`).
 */
export function formatPercentChange(change: string | null | undefined): string {
  const fixed = formatFixedNumber(change, 2);
  if (fixed === "--") return fixed;
  return `${/[1-9]/.test(fixed) && !fixed.startsWith("-") ? "+" : ""}${fixed}%`;
}

/**
 * A fiat value (issue 28 §4): from 1 up to a million with exactly two decimals, cut, never rounded
 * up (`2,699.94`, `860.20`); below 1 by the display rule (a coin worth `0.00001234` keeps its
 * digits); a million and more abbreviated (`1.23M`).
 */
export function formatFiatNumber(value: string | null | undefined, marks: NumberMarks = ENGLISH): string {
  const text = value?.trim() ?? "";
  const whole =
    text
      .replace(/^-/, "")
      .split(".")[0]
      ?.replace(/^0+(?=\d)/, "") ?? "";
  if (!isDecimalString(text) || whole === "0" || whole.length > 6) return formatDisplayNumber(value, marks);
  return formatFixedNumber(text, 2, marks);
}

/**
 * Writes the decimal point of a number already shaped elsewhere (a change such as `+1.25%`, a
 * fee rate `0.1`) with the language's mark, changing nothing else.
 */
export function withDecimalMark(text: string, decimal: DecimalMark): string {
  return decimal === "." ? text : text.replace(/(\d)\.(\d)/g, `$1${decimal}$2`);
}

/** The number display functions bound to one language's marks. */
export interface NumberFormat {
  marks: NumberMarks;
  /** Spec §5 display ({@link formatDisplayNumber}); `abbreviate` defaults to true. */
  display: (value: string | null | undefined, options?: { abbreviate?: boolean }) => string;
  /** Exactly `scale` decimals ({@link formatFixedNumber}). */
  fixed: (value: string | null | undefined, scale: number) => string;
  /** The language's decimal mark in an already shaped number ({@link withDecimalMark}). */
  mark: (text: string) => string;
}

/** The formatters of a language (a product code such as "tr"); English marks when unknown. */
export function numberFormatOf(language: string | undefined): NumberFormat {
  const marks = numberMarksOf(language);
  return {
    marks,
    display: (value, options = {}) => formatDisplayNumber(value, { ...marks, ...options }),
    fixed: (value, scale) => formatFixedNumber(value, scale, marks),
    mark: (text) => withDecimalMark(text, marks.decimal),
  };
}
