import { fromMinor, toMinor } from "#protocol/decimal";

/**
 * What an opening contract order costs, shown before it is placed (issue 30): the initial margin
 * at the member's leverage plus the taker fee, and how many contracts what is available opens at
 * most. Exact decimal arithmetic (bigint at 18 decimals), rounded up for a cost and down for a
 * count. An estimate: the engine holds a market order's margin at the edge of the price band and
 * returns what its fills did not use.
 */
export interface CostRules {
  /** 1 linear (a contract is `contractSize` of the base coin), 2 inverse (`contractSize` US dollars). */
  contract_type: 1 | 2;
  contractSize: string;
  settleScale: number;
  takerFeeRate: string;
}

const S = 18;
const ONE = 10n ** BigInt(S);

/** One contract's value in the settlement coin at `price`, 18 decimals (rounded up). */
function valueOfOne(rules: CostRules, price: bigint): bigint {
  const size = toMinor(rules.contractSize, S, "down");
  if (rules.contract_type === 1) return (size * price) / ONE;
  return (size * ONE + price - 1n) / price;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** The cost of `qty` contracts at `price` and `leverage` (margin + taker fee), in the settlement coin; null if a number is missing. */
export function openingCost(rules: CostRules, input: { price: string | null; qty: string | null; leverage: number }): string | null {
  if (!input.price || !input.qty || !/^[1-9]\d*$/.test(input.qty) || input.leverage < 1) return null;
  const price = toMinor(input.price, S, "down");
  if (price <= 0n) return null;
  const value = valueOfOne(rules, price) * BigInt(input.qty);
  const fee = (value * toMinor(rules.takerFeeRate, S, "up")) / ONE;
  const cost = ceilDiv(value, BigInt(input.leverage)) + fee;
  return fromMinor(ceilDiv(cost, 10n ** BigInt(S - rules.settleScale)), rules.settleScale);
}

/** The most contracts `available` opens at `price` and `leverage` (0 if none, null if a number is missing). */
export function maxOpenable(rules: CostRules, input: { price: string | null; available: string; leverage: number }): string | null {
  if (!input.price || input.leverage < 1) return null;
  const price = toMinor(input.price, S, "down");
  if (price <= 0n) return null;
  const one = valueOfOne(rules, price);
  const perContract = ceilDiv(one, BigInt(input.leverage)) + (one * toMinor(rules.takerFeeRate, S, "up")) / ONE;
  if (perContract <= 0n) return null;
  return (toMinor(input.available, S, "down") / perContract).toString();
}

/** A rate as a fraction (0.0001) in percent (0.01), exactly (to 8 decimals of a percent). */
export function percentOf(rate: string): string {
  return fromMinor(toMinor(rate, 10, "down"), 8);
}
