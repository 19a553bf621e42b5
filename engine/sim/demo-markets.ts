import type { Kysely } from "kysely";
import type { Database } from "../store/schema";

/**
 * The demo spot markets of a fresh install (spec issue: at least BTC, ETH, SOL, XRP, DOGE, TRX
 * against USDT), with trading rules sized to each coin's price. `start` is the reference price the
 * simulated liquidity begins from and returns to (its walk is mean-reverting around it); `weight`
 * sizes its orders (percent of a base notional); `volatilityPerDay` is the standard deviation of
 * a day's log return of that walk (BTC calmer than DOGE: a day's range is about 1.6 times it).
 * Inserted only while the table is empty.
 */
export const DEMO_MARKETS = [
  {
    symbol: "BTC/USDT",
    base: "BTC",
    weight: 400,
    priceScale: 2,
    amountScale: 6,
    tick: "0.01",
    lot: "0.000001",
    min: "0.00001",
    start: "64000",
    volatilityPerDay: 0.018,
  },
  {
    symbol: "ETH/USDT",
    base: "ETH",
    weight: 250,
    priceScale: 2,
    amountScale: 5,
    tick: "0.01",
    lot: "0.00001",
    min: "0.0001",
    start: "3200",
    volatilityPerDay: 0.022,
  },
  {
    symbol: "SOL/USDT",
    base: "SOL",
    weight: 120,
    priceScale: 3,
    amountScale: 3,
    tick: "0.001",
    lot: "0.001",
    min: "0.01",
    start: "150",
    volatilityPerDay: 0.03,
  },
  { symbol: "XRP/USDT", base: "XRP", weight: 100, priceScale: 4, amountScale: 2, tick: "0.0001", lot: "0.01", min: "1", start: "0.6", volatilityPerDay: 0.028 },
  {
    symbol: "DOGE/USDT",
    base: "DOGE",
    weight: 80,
    priceScale: 5,
    amountScale: 0,
    tick: "0.00001",
    lot: "1",
    min: "10",
    start: "0.15",
    volatilityPerDay: 0.035,
  },
  { symbol: "TRX/USDT", base: "TRX", weight: 50, priceScale: 5, amountScale: 0, tick: "0.00001", lot: "1", min: "10", start: "0.12", volatilityPerDay: 0.016 },
] as const;

export type DemoMarket = (typeof DEMO_MARKETS)[number];

export async function seedDemoMarkets(db: Kysely<Database>): Promise<void> {
  const existing = await db.selectFrom("market_symbol").select("id").limit(1).execute();
  if (existing.length) return;
  await db
    .insertInto("market_symbol")
    .values(
      DEMO_MARKETS.map((m, i) => ({
        symbol_name: m.symbol,
        coin_symbol: m.base,
        quote_symbol: "USDT",
        contract_type: 0,
        price_scale: m.priceScale,
        amount_scale: m.amountScale,
        tick_size: m.tick,
        lot_size: m.lot,
        min_quantity: m.min,
        avatar: null,
        sort: (i + 1) * 10,
        enabled: true,
      })) as never,
    )
    .execute();
}
