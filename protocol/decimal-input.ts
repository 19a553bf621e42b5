/**
 * Number fields of money forms (order price and amount, and every money form after it): what a
 * member types becomes exactly one decimal, or it is refused (decisions 014 and 039).
 *
 * One reader, {@link readDecimalInput}, for both tiers: the server parses every post with it, and
 * the browser reads a field with it as the member types, to show the total, the fee and the
 * server's own message while the text cannot be read. It reshapes nothing: a value that is not
 * already a plain decimal in the member's language within the field's scale is refused with a
 * reason; an accepted one is turned into the one canonical decimal string it denotes (`0,01` in
 * Turkish is `0.01`). Nothing in the browser rewrites what was typed or pasted (decision 039: the
 * spec's §5 clean-up changed values, so exactness wins over it).
 */

export type DecimalMark = "." | ",";

/** Languages of the product that write a decimal comma (the others write a point). */
const COMMA_LANGUAGES = new Set(["tr", "de", "fr", "es"]);

/** The decimal mark a member of `language` writes: `,` in tr, de, fr and es; `.` otherwise. */
export function decimalMarkOf(language: string | undefined): DecimalMark {
  return COMMA_LANGUAGES.has(language ?? "") ? "," : ".";
}

/** Why a typed number was refused; each has a message `validation.number.<reason>`. */
export type DecimalInputError = "required" | "invalid" | "wrong_mark" | "negative" | "decimals" | "whole" | "too_large" | "zero";

export interface DecimalInputRules {
  /** Decimals the field takes (the market's price, amount or money scale). */
  scale: number;
  mark: DecimalMark;
  /** Digits before the mark (engine/core refuses 10^15 whole units and more). */
  maxWholeDigits?: number;
}

export type DecimalInputResult = { ok: true; value: string } | { ok: false; error: DecimalInputError };

/**
 * Reads a typed number strictly: digits with at most one decimal mark (the language's), nothing
 * else but surrounding spaces; within the field's decimals and size; above zero. Answers the
 * canonical decimal string (point, no leading or trailing zeros) it denotes.
 */
export function readDecimalInput(raw: string, rules: DecimalInputRules): DecimalInputResult {
  const text = raw.trim();
  const maxWhole = rules.maxWholeDigits ?? 15;
  if (text === "") return { ok: false, error: "required" };
  if (/^[-−]/.test(text)) return { ok: false, error: "negative" };
  const other = rules.mark === "." ? "," : ".";
  const match = new RegExp(`^(\\d+)(?:\\${rules.mark}(\\d*))?$`).exec(text);
  if (!match) {
    // `0,01` where the language writes `0.01` (or the reverse) is not guessed at.
    const otherMark = new RegExp(`^\\d+\\${other}\\d*$`).test(text);
    return { ok: false, error: otherMark ? "wrong_mark" : "invalid" };
  }
  const whole = match[1]!.replace(/^0+(?=\d)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > rules.scale) return { ok: false, error: rules.scale === 0 ? "whole" : "decimals" };
  if (whole.length > maxWhole) return { ok: false, error: "too_large" };
  if (!/[1-9]/.test(whole + fraction)) return { ok: false, error: "zero" };
  return { ok: true, value: fraction ? `${whole}.${fraction}` : whole };
}

/** A canonical decimal string as a member of this mark writes it in a field (`0.5` → `0,5`). */
export function toInputText(value: string, mark: DecimalMark): string {
  return mark === "." ? value : value.replace(".", ",");
}
