import { decimals, fromMinor, multiplyDecimal, toMinor } from "#protocol/decimal";

/**
 * `percent` % of `amount`, rounded down to `scale` decimals, as the engine rounds a fee (it takes
 * the fee from what the member receives and never rounds it up).
 */
export function percentOf(amount: string, percent: string, scale: number): string {
  // percent ÷ 100 is exact with two more decimals; the product is rounded down like a fee.
  return multiplyDecimal(amount, multiplyDecimal(percent, "0.01", decimals(percent) + 2), scale);
}

/** `a ÷ b` rounded down to `scale` decimals; null when `b` is zero. */
export function divideDecimal(a: string, b: string, scale: number): string | null {
  const sa = decimals(a);
  const sb = decimals(b);
  const divisor = toMinor(b, sb) * 10n ** BigInt(sa);
  if (divisor === 0n) return null;
  return fromMinor((toMinor(a, sa) * 10n ** BigInt(sb + scale)) / divisor, scale);
}

export interface FeeEstimate {
  value: string;
  unit: string;
}

/**
 * The most an order can pay in fees, at the taker rate (an order that rests and fills later pays
 * the lower maker rate). A buy pays in the coin it receives, a sell in the quote coin. Amounts are
 * canonical decimals; `price` is the order's price, or the last price for a market order.
 */
export function estimateOrderFee(input: {
  side: "buy" | "sell";
  takerFee: string;
  base: string;
  quote: string;
  price: string | null;
  num: string | null;
  money: string | null;
}): FeeEstimate | null {
  const { side, takerFee, price, num, money } = input;
  if (side === "buy") {
    const amount = num ?? (money && price ? divideDecimal(money, price, 8) : null);
    return amount ? { value: percentOf(amount, takerFee, 8), unit: input.base } : null;
  }
  if (!num || !price) return null;
  const value = multiplyDecimal(num, price, decimals(num) + decimals(price));
  return { value: percentOf(value, takerFee, 8), unit: input.quote };
}
