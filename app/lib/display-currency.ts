import { multiplyDecimal } from "#protocol/decimal";
import { formatDisplayNumber, type NumberMarks } from "./number-format";
import type { DisplayCurrency } from "./shell";

/**
 * A USDT-quoted value shown in the visitor's display currency (spec §1): multiplied by the rate
 * exactly, then formatted by the number-display rule, prefixed with the currency symbol.
 * USDT is taken at par with the US dollar, which is what the rates are quoted against. The number
 * is written with the member's language's `marks` (English when none are given).
 */
export function toDisplayMoney(value: string | null, currency: DisplayCurrency, marks?: NumberMarks): string {
  if (value === null) return "--";
  const converted = multiplyDecimal(value, currency.rate, 8);
  return `${currency.symbol}${formatDisplayNumber(converted, marks)}`;
}
