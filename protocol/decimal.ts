/**
 * Decimal money helpers shared by the engine and the web tier.
 * On the wire and in the database amounts are decimal strings; in the engine core they are
 * `bigint` minor units with a scale per asset or symbol. A JS `number` never holds an amount.
 */
// Without zod: the browser imports these (decision 034); the wire schemas of the strings are in money.ts.

export const DECIMAL_PATTERN = /^-?(0|[1-9]\d*)(\.\d+)?$/;
export const UNSIGNED_DECIMAL_PATTERN = /^(0|[1-9]\d*)(\.\d+)?$/;

export function isDecimalString(value: string): boolean {
  return value.length <= 64 && DECIMAL_PATTERN.test(value);
}

export type Rounding = "exact" | "down" | "up";

/**
 * Converts a decimal string to integer minor units at `scale` decimals.
 * With `rounding: "exact"` (default) extra non-zero decimals are an error;
 * `down` truncates toward zero, `up` rounds away from zero.
 */
export function toMinor(value: string, scale: number, rounding: Rounding = "exact"): bigint {
  if (!Number.isInteger(scale) || scale < 0 || scale > 36) throw new RangeError(`bad scale ${scale}`);
  if (!isDecimalString(value)) throw new RangeError(`not a decimal string: ${JSON.stringify(value)}`);
  // Index arithmetic, no splitting or regular expressions: every order and answer passes through
  // here several times (the engine's profile of an order had these two conversions at ~5 %).
  const negative = value.charCodeAt(0) === 45; // "-"
  const start = negative ? 1 : 0;
  const dot = value.indexOf(".", start);
  const wholeEnd = dot < 0 ? value.length : dot;
  const fractionStart = dot < 0 ? value.length : dot + 1;
  const fractionLength = value.length - fractionStart;
  const keptEnd = fractionStart + Math.min(fractionLength, scale);
  let digits = value.slice(start, wholeEnd) + value.slice(fractionStart, keptEnd);
  if (fractionLength < scale) digits += "0".repeat(scale - fractionLength);
  let minor = BigInt(digits);
  if (fractionLength > scale && hasNonZeroDigit(value, keptEnd)) {
    if (rounding === "exact") throw new RangeError(`${value} has more than ${scale} decimals`);
    if (rounding === "up") minor += 1n;
  }
  return negative ? -minor : minor;
}

function hasNonZeroDigit(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) if (text.charCodeAt(i) !== 48) return true;
  return false;
}

/** Formats integer minor units at `scale` decimals as a canonical decimal string (trailing zeros trimmed). */
export function fromMinor(minor: bigint, scale: number, options?: { trim?: boolean }): string {
  const trim = options?.trim ?? true;
  const negative = minor < 0n;
  let digits = (negative ? -minor : minor).toString();
  if (digits.length <= scale) digits = "0".repeat(scale + 1 - digits.length) + digits;
  const cut = digits.length - scale;
  let end = digits.length;
  if (trim) while (end > cut && digits.charCodeAt(end - 1) === 48) end--;
  const text = end > cut ? `${digits.slice(0, cut)}.${digits.slice(cut, end)}` : digits.slice(0, cut);
  // A negative amount is never zero, so its text always has a digit that is not 0.
  return negative ? `-${text}` : text;
}

/** Compares two decimal strings exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(decimals(a), decimals(b));
  const x = toMinor(a, scale);
  const y = toMinor(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Multiplies two decimal strings exactly and rounds the product down to `scale` decimals. */
export function multiplyDecimal(a: string, b: string, scale: number): string {
  const sa = decimals(a);
  const sb = decimals(b);
  const product = toMinor(a, sa) * toMinor(b, sb);
  const shift = sa + sb - scale;
  const scaled = shift >= 0 ? product / 10n ** BigInt(shift) : product * 10n ** BigInt(-shift);
  return fromMinor(scaled, scale);
}

/** Number of decimals written in a decimal string. */
export function decimals(value: string): number {
  const point = value.indexOf(".");
  return point === -1 ? 0 : value.length - point - 1;
}

/** `a + b ≤ c`, exactly, for decimal strings. */
export function sumFits(a: string, b: string, c: string): boolean {
  const scale = Math.max(decimals(a), decimals(b), decimals(c));
  return toMinor(a, scale) + toMinor(b, scale) <= toMinor(c, scale);
}

/** `a + b`, exactly, for decimal strings. */
export function addDecimals(a: string, b: string): string {
  const scale = Math.max(decimals(a), decimals(b));
  return fromMinor(toMinor(a, scale) + toMinor(b, scale), scale, { trim: true });
}

/** `a − b`, exactly, for decimal strings (negative when b is larger). */
export function subtractDecimals(a: string, b: string): string {
  const scale = Math.max(decimals(a), decimals(b));
  const minor = toMinor(a, scale) - toMinor(b, scale);
  return minor < 0n ? `-${fromMinor(-minor, scale, { trim: true })}` : fromMinor(minor, scale, { trim: true });
}
