import type { Kysely, Selectable } from "kysely";
import { fromMinor, toMinor } from "../../protocol/money";
import { RATE_SCALE } from "../core/contracts/contract-math";
import type { PerpetualConfig } from "../core/contracts/perpetual";
import type { CandleScales } from "../market/stored-candles";
import type { ContractSymbolTable, Database } from "../store/schema";

/**
 * A contract's configuration between its table row (decimals as operators read them: a tick of
 * 0.1, 0.001 BTC per contract, a maintenance rate of 0.004, a band of 0.05) and the core's units
 * (decision 046). Linear contracts are an amount of the base coin each; inverse ones a face value
 * in whole dollars.
 */
export type ContractRow = Selectable<ContractSymbolTable>;

/** Decimals of a decimal text (0.001 → 3; 100 → 0). */
function decimalsOf(text: string): number {
  const trimmed = text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
  const dot = trimmed.indexOf(".");
  return dot < 0 ? 0 : trimmed.length - dot - 1;
}

/** NUMERIC columns arrive with the column's full scale (0.100000000000000000): as the decimal people wrote. */
export function trimDecimal(text: string): string {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

export function configOfRow(row: ContractRow, settleScale: number): PerpetualConfig {
  const multiplierText = trimDecimal(String(row.multiplier));
  const multiplierScale = row.kind === "linear" ? decimalsOf(multiplierText) : 0;
  return {
    symbol: row.symbol,
    base: row.base,
    quote: row.quote,
    settleAsset: row.settle_asset,
    spec: { kind: row.kind, priceScale: row.price_scale, settleScale, multiplier: toMinor(multiplierText, multiplierScale), multiplierScale },
    tickSize: toMinor(trimDecimal(String(row.tick_size)), row.price_scale),
    minQty: BigInt(row.min_qty),
    maxQty: BigInt(row.max_qty),
    makerFeeBps: row.maker_fee_bps,
    takerFeeBps: row.taker_fee_bps,
    tiers: row.tiers.map((t) => ({
      maxValue: toMinor(trimDecimal(t.max_value), settleScale),
      maxLeverage: t.max_leverage,
      mmr: toMinor(trimDecimal(t.mmr), RATE_SCALE),
    })),
    priceBand: toMinor(trimDecimal(String(row.price_band)), RATE_SCALE),
    defaultLeverage: row.default_leverage,
    impactQty: BigInt(row.impact_qty),
  };
}

/** A contract's candle scales: prices at its price scale, volume in whole contracts, turnover in the settlement coin. */
export function candleScalesOf(spec: { priceScale: number; settleScale: number }): CandleScales {
  return { priceScale: spec.priceScale, amountScale: 0, quoteScale: spec.settleScale };
}

/** A contract's size as people read it: 0.001 BTC, or 100 USD. */
export function contractSize(config: PerpetualConfig): { amount: string; unit: string } {
  const { spec } = config;
  return { amount: fromMinor(spec.multiplier, spec.multiplierScale, { trim: true }), unit: spec.kind === "linear" ? config.base : "USD" };
}

export async function contractRows(db: Kysely<Database>): Promise<ContractRow[]> {
  return db.selectFrom("contract_symbol").selectAll().orderBy("sort").orderBy("symbol").execute();
}
