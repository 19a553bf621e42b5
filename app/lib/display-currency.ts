import { multiplyDecimal } from "#protocol/decimal";
import { formatFiatNumber, type NumberMarks } from "./number-format";
import type { DisplayCurrency } from "./shell";

/**
 * A USDT-quoted value shown in the visitor's display currency (spec §1): multiplied by the rate
 * exactly, then written as fiat (two decimals from 1 up, `formatFiatNumber`), prefixed with the currency symbol.
 * USDT is taken at par with the US dollar, which is what the rates are quoted against. The number
 * is written with the member's language's `marks` (English when none are given).
 */
export function toDisplayMoney(value: string | null, currency: DisplayCurrency, marks?: NumberMarks): string {
  if (value === null) return "--";
  const converted = multiplyDecimal(value, currency.rate, 8);
  return `${currency.symbol}${formatFiatNumber(converted, marks)}`;
}
