import { multiplyDecimal } from "#protocol/decimal";
import { formatFiatNumber, type NumberMarks } from "./number-format";
import type { DisplayCurrency } from "./shell";

/**
 * A USDT-quoted value shown in the visitor's display currency (spec §1): multiplied by the rate
 * exactly, then written as fiat (two decimals from 1 up, `formatFiatNumber`), prefixed with the currency symbol.
 * USDT is taken at par with the US dollar, which is what the rates are quoted against. The number
 * is written with the member's language's `marks` (English when none are given).
 *
 * A sign (`$`, `€`, `HK$`) sits against the number; a symbol that ends in a letter (an operator
 * may enter `CHF`) is a word, and takes a space as every unit does (`CHF 12.50`, never `CHF12.50`).
 */
export function toDisplayMoney(value: string | null, currency: DisplayCurrency, marks?: NumberMarks): string {
  if (value === null) return "--";
  const converted = multiplyDecimal(value, currency.rate, 8);
  const gap = /\p{L}$/u.test(currency.symbol) ? " " : "";
  return `${currency.symbol}${gap}${formatFiatNumber(converted, marks)}`;
}
