import type { SpotSymbolConfig } from "./spot-market";

/** The highest fee a market may charge, in basis points (10 %): anything above is a typo. */
export const MAX_FEE_BPS = 1_000n;
/** The most decimals a price, an amount or an asset may have (the NUMERIC(38, 18) columns). */
export const MAX_SCALE = 18;

/** The trading rules an operator may change on a live market (decision 016). */
export type TradingRules = Pick<SpotSymbolConfig, "minQuantity" | "makerFeeBps" | "takerFeeBps">;

/**
 * Why a market's configuration cannot trade exactly, or null when it can. Checked whenever a
 * market is opened: a market the core accepts never rounds a trade's value or a fee it should not.
 */
export function symbolConfigProblem(c: SpotSymbolConfig): string | null {
  const scales = { priceScale: c.priceScale, amountScale: c.amountScale, baseAssetScale: c.baseAssetScale, quoteAssetScale: c.quoteAssetScale };
  for (const [name, scale] of Object.entries(scales)) {
    if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) return `${name} must be a whole number from 0 to ${MAX_SCALE}`;
  }
  if (c.base === c.quote) return "base and quote must be different assets";
  if (c.priceScale + c.amountScale > c.quoteAssetScale) return "price and amount scales together exceed the quote asset's scale";
  if (c.amountScale > c.baseAssetScale) return "the amount scale exceeds the base asset's scale";
  if (c.tickSize <= 0n) return "the tick size must be more than 0";
  if (c.lotSize <= 0n) return "the lot size must be more than 0";
  for (const [name, bps] of [
    ["maker fee", c.makerFeeBps],
    ["taker fee", c.takerFeeBps],
  ] as const) {
    if (bps < 0n || bps > MAX_FEE_BPS) return `the ${name} must be from 0 to ${MAX_FEE_BPS} basis points`;
  }
  return null;
}

/**
 * Why an operator may not list a market with these rules or change it to them, or null: the
 * market must trade exactly, and its minimum must be a whole number of lots (an order of exactly
 * the minimum can be placed). Markets stored before this rule still open (symbolConfigProblem).
 */
export function listingProblem(c: SpotSymbolConfig): string | null {
  const problem = symbolConfigProblem(c);
  if (problem) return problem;
  if (c.minQuantity < c.lotSize) return "the minimum quantity must be at least one lot";
  if (c.minQuantity % c.lotSize !== 0n) return "the minimum quantity must be a whole number of lots";
  return null;
}
