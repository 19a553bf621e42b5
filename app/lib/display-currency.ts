import { multiplyDecimal } from "#protocol/money";
import { formatDisplayNumber } from "./number-format";
import type { DisplayCurrency } from "./shell";

/**
 * A USDT-quoted value shown in the visitor's display currency (spec §1): multiplied by the rate
 * exactly, then formatted by the number-display rule, prefixed with the currency symbol.
 * USDT is taken at par with the US dollar, which is what the rates are quoted against.
 */
export function toDisplayMoney(value: string | null, currency: DisplayCurrency): string {
  if (value === null) return "--";
  const converted = multiplyDecimal(value, currency.rate, 8);
  return `${currency.symbol}${formatDisplayNumber(converted)}`;
}
