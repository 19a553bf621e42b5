/**
 * The arithmetic of perpetual contracts (issue 30, docs/decisions/045-perpetual-contract-math.md):
 * values, margins, profit and loss, liquidation and bankruptcy prices, funding, for linear
 * (USDT-margined) and inverse (coin-margined) contracts. Everything is an integer: a price at the
 * contract's `priceScale`, a quantity in whole contracts, money at the settlement asset's scale,
 * rates at `RATE_SCALE`. Every division says which way it rounds, and the decision says why.
 */

/** Rates (maintenance-margin rates, funding, basis) are integers of 10^-8: 0.5 % is 500_000n. */
export const RATE_SCALE = 8;
export const RATE_ONE = 10n ** BigInt(RATE_SCALE);

export type ContractKind = "linear" | "inverse";
export type PositionSide = "long" | "short";

export interface ContractSpec {
  kind: ContractKind;
  /** Decimals of a price (quote per one base: USDT for linear, USD for inverse). */
  priceScale: number;
  /** Decimals of the settlement asset: USDT for linear, the base coin for inverse. */
  settleScale: number;
  /**
   * What one contract is. Linear: an amount of the base coin at `multiplierScale` decimals
   * (0.001 BTC: 1n at scale 3). Inverse: a face value in whole US dollars (100n), scale 0.
   */
  multiplier: bigint;
  multiplierScale: number;
}

/** A band of the risk-limit table: up to `maxValue` (settlement units, inclusive) of a position's value. */
export interface RiskTier {
  maxValue: bigint;
  maxLeverage: number;
  /** Maintenance-margin rate (RATE units). */
  mmr: bigint;
}

/** Why a spec cannot be computed with exactly (null: it can). */
export function contractSpecProblem(spec: ContractSpec): string | null {
  if (spec.multiplier <= 0n) return "a contract must be worth more than nothing";
  if (spec.kind === "inverse" && spec.multiplierScale !== 0) return "an inverse contract's face value is whole dollars";
  // A linear trade's value must be exact at the settlement asset's scale (no rounding in a trade).
  if (spec.kind === "linear" && spec.priceScale + spec.multiplierScale > spec.settleScale) return "price and contract decimals exceed the settlement asset's";
  return null;
}

/** Division of integers rounded toward minus infinity / plus infinity (bigint `/` truncates toward zero). */
export function divFloor(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
export function divCeil(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n === b < 0n ? q + 1n : q;
}

/** Powers of ten, made once (a value is computed on every fill: `10n ** BigInt(n)` allocated twice each time). */
const POW10 = Array.from({ length: 40 }, (_, n) => 10n ** BigInt(n));
const pow10 = (n: number) => POW10[n] ?? 10n ** BigInt(n);

/**
 * Settlement units per price unit of `qty` linear contracts: value(P) = factor × P, exactly.
 * (BTC/USDT at 0.001 BTC per contract, price in tenths, USDT at 8 decimals: 1 contract at
 * 50000.0 is 500000 × 10^4 = 5 × 10^9 units = 50 USDT.)
 */
function linearFactor(spec: ContractSpec, qty: bigint): bigint {
  return qty * spec.multiplier * pow10(spec.settleScale - spec.priceScale - spec.multiplierScale);
}

/** Inverse: value(P) = g / P in settlement units, g = qty × face × 10^(settleScale + priceScale). */
function inverseNumerator(spec: ContractSpec, qty: bigint): bigint {
  return qty * spec.multiplier * pow10(spec.settleScale + spec.priceScale);
}

/**
 * What `qty` contracts are worth at `price`, in settlement units: linear qty × size × price
 * (exact); inverse qty × face ÷ price, rounded down (one rounding for both sides of a trade, so
 * what the buyer's position records is what the seller's does).
 */
export function contractValue(spec: ContractSpec, qty: bigint, price: bigint): bigint {
  if (price <= 0n) throw new RangeError("a price is above zero");
  return spec.kind === "linear" ? linearFactor(spec, qty) * price : divFloor(inverseNumerator(spec, qty), price);
}

/** The initial margin of a position's value at a leverage: value ÷ leverage, rounded up (never less than required). */
export function initialMargin(value: bigint, leverage: number): bigint {
  if (!Number.isInteger(leverage) || leverage < 1) throw new RangeError("leverage is a whole number from 1");
  return divCeil(value, BigInt(leverage));
}

export type RiskBand = RiskTier & { index: number; deduction: bigint };

/** Each table's bands with their deductions, made once per table (a table is configuration: it does not change). */
const bandsOfTable = new WeakMap<readonly RiskTier[], RiskBand[]>();

function bandsOf(tiers: readonly RiskTier[]): RiskBand[] {
  let bands = bandsOfTable.get(tiers);
  if (bands) return bands;
  if (tiers.length === 0) throw new RangeError("a contract has at least one risk band");
  bands = [];
  let deduction = 0n;
  for (let index = 0; index < tiers.length; index++) {
    const tier = tiers[index]!;
    if (index > 0) {
      // The deduction keeps the maintenance margin continuous across a band's edge.
      const previous = tiers[index - 1]!;
      deduction += divFloor(previous.maxValue * (tier.mmr - previous.mmr), RATE_ONE);
    }
    bands.push({ ...tier, index, deduction });
  }
  bandsOfTable.set(tiers, bands);
  return bands;
}

/** The band a position's value falls in (the last band for anything larger). */
export function tierOf(tiers: readonly RiskTier[], value: bigint): RiskBand {
  const bands = bandsOf(tiers);
  for (const band of bands) if (value <= band.maxValue) return band;
  return bands[bands.length - 1]!;
}

/** The maintenance margin of a position's value: value × rate − the band's deduction, rounded up, never below zero. */
export function maintenanceMargin(tiers: readonly RiskTier[], value: bigint): bigint {
  const tier = tierOf(tiers, value);
  const margin = divCeil(value * tier.mmr, RATE_ONE) - tier.deduction;
  return margin > 0n ? margin : 0n;
}

/**
 * An open position: its side, size in contracts, and its cost, the sum of each opening trade's
 * value (settlement units), from which the average entry follows (linear cost ÷ factor, inverse
 * g ÷ cost). Keeping the cost, not a rounded average, keeps profit and loss exact.
 */
export interface PositionCost {
  side: PositionSide;
  qty: bigint;
  cost: bigint;
}

/**
 * Profit (positive) or loss of a position valued at `price`: linear longs gain as the value rises
 * (value − cost), inverse longs as the coin value of the same dollars falls (cost − value).
 */
export function unrealisedPnl(spec: ContractSpec, position: PositionCost, price: bigint): bigint {
  return pnlOfValue(spec, position.side, position.cost, contractValue(spec, position.qty, price));
}

/** Profit or loss of contracts that cost `cost` and are now worth `value` (a close's realised profit: its cost share and its trade's value). */
export function pnlOfValue(spec: ContractSpec, side: PositionSide, cost: bigint, value: bigint): bigint {
  const longGain = spec.kind === "linear" ? value - cost : cost - value;
  return side === "long" ? longGain : -longGain;
}

/**
 * The part of a position's cost that `closing` of its `qty` contracts carry, rounded down: a
 * partial close takes its share, the last close takes what remains (so the costs taken add up to
 * the cost, exactly).
 */
export function costShare(position: PositionCost, closing: bigint): bigint {
  if (closing <= 0n || closing > position.qty) throw new RangeError("a close takes from 1 to all of a position's contracts");
  return closing === position.qty ? position.cost : divFloor(position.cost * closing, position.qty);
}

/** The average entry price of a position (price units): linear rounded to the nearest, shown only; inverse likewise. */
export function averageEntry(spec: ContractSpec, position: PositionCost): bigint {
  if (position.qty <= 0n || position.cost <= 0n) throw new RangeError("an open position has contracts and a cost");
  const half = (d: bigint) => d / 2n;
  if (spec.kind === "linear") {
    const factor = linearFactor(spec, position.qty);
    return (position.cost + half(factor)) / factor;
  }
  const g = inverseNumerator(spec, position.qty);
  return (g + half(position.cost)) / position.cost;
}

/**
 * The mark price at which an isolated position's margin plus its profit falls to its maintenance
 * margin (the band of the position's value at `bandPrice`, usually the mark): solved exactly, then
 * rounded to the price unit toward the mark (a long's up, a short's down), so the shown price is
 * never past the real one. Null when no price gets there (a 1x long's liquidation price is zero or
 * below; an inverse short whose margin covers any rise).
 */
export function liquidationPrice(spec: ContractSpec, tiers: readonly RiskTier[], position: PositionCost, margin: bigint, bandPrice: bigint): bigint | null {
  const tier = tierOf(tiers, contractValue(spec, position.qty, bandPrice));
  const { mmr, deduction } = tier;
  const { cost } = position;
  let price: bigint | null;
  if (spec.kind === "linear") {
    const factor = linearFactor(spec, position.qty);
    // long:  margin + f·P − cost = f·P·mmr − deduction  →  P = (cost − margin − deduction) ÷ (f·(1 − mmr))
    // short: margin + cost − f·P = f·P·mmr − deduction  →  P = (cost + margin + deduction) ÷ (f·(1 + mmr))
    price =
      position.side === "long"
        ? positiveOrNull(divCeil((cost - margin - deduction) * RATE_ONE, factor * (RATE_ONE - mmr)))
        : positiveOrNull(divFloor((cost + margin + deduction) * RATE_ONE, factor * (RATE_ONE + mmr)));
  } else {
    const g = inverseNumerator(spec, position.qty);
    // long:  margin + cost − g/P = (g/P)·mmr − deduction  →  P = g·(1 + mmr) ÷ (margin + cost + deduction)
    // short: margin + g/P − cost = (g/P)·mmr − deduction  →  P = g·(1 − mmr) ÷ (cost − margin − deduction)
    if (position.side === "long") price = positiveOrNull(divCeil(g * (RATE_ONE + mmr), (margin + cost + deduction) * RATE_ONE));
    else {
      const room = cost - margin - deduction;
      price = room <= 0n ? null : positiveOrNull(divFloor(g * (RATE_ONE - mmr), room * RATE_ONE));
    }
  }
  return price;
}

/**
 * The price at which an isolated position's margin is used up (margin + profit = 0): where the
 * liquidation engine closes it. Rounded to the price unit so the loss at it is at most the
 * margin (a long's up, a short's down). Null when none exists (an inverse short with margin
 * above its cost).
 */
export function bankruptcyPrice(spec: ContractSpec, position: PositionCost, margin: bigint): bigint | null {
  const { cost } = position;
  if (spec.kind === "linear") {
    const factor = linearFactor(spec, position.qty);
    return position.side === "long" ? positiveOrNull(divCeil(cost - margin, factor)) : positiveOrNull(divFloor(cost + margin, factor));
  }
  const g = inverseNumerator(spec, position.qty);
  if (position.side === "long") return positiveOrNull(divCeil(g, margin + cost));
  return cost - margin <= 0n ? null : positiveOrNull(divFloor(g, cost - margin));
}

function positiveOrNull(price: bigint): bigint | null {
  return price > 0n ? price : null;
}

/**
 * A position's funding at a funding time: its value at the mark × the rate. Longs pay shorts
 * when the rate is positive, shorts pay longs when it is negative. A payer's amount is rounded
 * up, a receiver's down: what is paid covers what is received, and the rest (a few units per
 * position at most) goes to the insurance fund. Answers the signed amount for the position's
 * holder (negative: they pay).
 */
export function fundingPayment(spec: ContractSpec, position: { side: PositionSide; qty: bigint }, mark: bigint, rate: bigint): bigint {
  if (rate === 0n) return 0n;
  const value = contractValue(spec, position.qty, mark);
  const pays = (position.side === "long") === rate > 0n;
  const magnitude = rate > 0n ? rate : -rate;
  return pays ? -divCeil(value * magnitude, RATE_ONE) : divFloor(value * magnitude, RATE_ONE);
}

/** Funding's rules: the interest part and the caps (RATE units, per funding interval). */
export interface FundingRules {
  /** The interest rate per interval (0.01 % per 8 hours: 10_000n). */
  interest: bigint;
  /** How far the interest part may pull the premium (0.05 %: 50_000n). */
  dampener: bigint;
  /** The rate's limit either way (0.375 %: 375_000n). */
  cap: bigint;
}

export const DEFAULT_FUNDING: FundingRules = { interest: 10_000n, dampener: 50_000n, cap: 375_000n };

const clamp = (value: bigint, low: bigint, high: bigint) => (value < low ? low : value > high ? high : value);

/**
 * The funding rate from the interval's average premium index (RATE units):
 * premium + clamp(interest − premium, −dampener, +dampener), then clamped to ±cap.
 */
export function fundingRate(averagePremium: bigint, rules: FundingRules = DEFAULT_FUNDING): bigint {
  const rate = averagePremium + clamp(rules.interest - averagePremium, -rules.dampener, rules.dampener);
  return clamp(rate, -rules.cap, rules.cap);
}

/** The premium index of one sample: (impact price − index) ÷ index, in RATE units, rounded toward zero. */
export function premiumIndex(impactPrice: bigint, index: bigint): bigint {
  if (index <= 0n) throw new RangeError("an index price is above zero");
  return ((impactPrice - index) * RATE_ONE) / index;
}

/**
 * The mark price: the index plus the smoothed basis, the basis held within ±`cap` of the index
 * (RATE units), so a thin book cannot move the mark (and with it liquidations) far from the index.
 */
export function markPrice(index: bigint, smoothedBasis: bigint, cap: bigint): bigint {
  const limit = (index * cap) / RATE_ONE;
  return index + clamp(smoothedBasis, -limit, limit);
}
