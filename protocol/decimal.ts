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
  const negative = value.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? value.slice(1) : value).split(".");
  const kept = fraction.slice(0, scale).padEnd(scale, "0");
  const dropped = fraction.slice(scale);
  let minor = BigInt(whole + kept);
  if (/[1-9]/.test(dropped)) {
    if (rounding === "exact") throw new RangeError(`${value} has more than ${scale} decimals`);
    if (rounding === "up") minor += 1n;
  }
  return negative ? -minor : minor;
}

/** Formats integer minor units at `scale` decimals as a canonical decimal string (trailing zeros trimmed). */
export function fromMinor(minor: bigint, scale: number, options: { trim?: boolean } = {}): string {
  const trim = options.trim ?? true;
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  let fraction = digits.slice(digits.length - scale);
  if (trim) fraction = fraction.replace(/0+$/, "");
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
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
