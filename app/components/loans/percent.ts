import { multiplyDecimal } from "#protocol/decimal";

/** A fraction (0.6001) as a percentage with two decimals ("60.01"), cut, never rounded up; null stays null. */
export function percentOf(fraction: string | null): string | null {
  return fraction === null ? null : multiplyDecimal(fraction, "100", 2);
}
