/**
 * Number display of spec §5: below 1 up to 8 decimals; 1 to 10 up to 6; 10 to 100 up to 5; then
 * fewer (100–1,000: 4; 1,000–10,000: 3; 10,000–1,000,000: 2); millions, billions and trillions
 * as M, B and T with 2 decimals. Input is a decimal string; digits past the allowed decimals are
 * cut, never rounded up, so a balance is never shown larger than it is. Trailing zeros are trimmed.
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

export interface DisplayOptions {
  /** Thousands separator; empty string for none. */
  separator?: string;
  /** Abbreviate millions and above with M, B, T (default true). */
  abbreviate?: boolean;
}

/** Formats a decimal string for display; anything that is not a decimal number shows as "--". */
export function formatDisplayNumber(value: string | null | undefined, options: DisplayOptions = {}): string {
  const { separator = ",", abbreviate = true } = options;
  if (value == null || !/^-?\d+(\.\d+)?$/.test(value.trim())) return "--";
  const text = value.trim();
  const negative = text.startsWith("-");
  const [rawWhole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const whole = rawWhole.replace(/^0+(?=\d)/, "");
  let result: string;
  const unit = abbreviate ? UNITS.find(([digits]) => whole.length > digits) : undefined;
  if (unit) {
    const [digits, suffix] = unit;
    const head = whole.slice(0, whole.length - digits);
    const tail = whole.slice(whole.length - digits, whole.length - digits + 2).replace(/0+$/, "");
    result = `${group(head, separator)}${tail ? `.${tail}` : ""}${suffix}`;
  } else {
    const kept = fraction.slice(0, decimalsFor(whole)).replace(/0+$/, "");
    result = `${group(whole, separator)}${kept ? `.${kept}` : ""}`;
  }
  return negative && /[1-9]/.test(result) ? `-${result}` : result;
}
