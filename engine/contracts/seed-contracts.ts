import type { Kysely } from "kysely";
import type { ContractTierRow, Database } from "../store/schema";

/**
 * The contracts of a fresh install (issue 30): USDT-margined BTC, ETH, SOL and XRP, and
 * coin-margined BTC and ETH, with a risk-limit table each (the further a position's value, the
 * lower its leverage and the higher its maintenance rate). Configuration, not demo data: seeded
 * while the table is empty, simulated or not, and kept by operators afterwards.
 */
const tiers = (...bands: Array<[maxValue: string, maxLeverage: number, mmr: string]>): ContractTierRow[] =>
  bands.map(([max_value, max_leverage, mmr]) => ({ max_value, max_leverage, mmr }));

export const SEEDED_CONTRACTS = [
  {
    symbol: "BTC/USDT",
    base: "BTC",
    quote: "USDT",
    settle_asset: "USDT",
    kind: "linear",
    price_scale: 1,
    multiplier: "0.001",
    tick_size: "0.1",
    max_qty: "100000",
    impact_qty: "200",
    tiers: tiers(["50000", 100, "0.004"], ["500000", 50, "0.005"], ["2000000", 20, "0.01"], ["10000000", 10, "0.025"]),
    index_sources: ["BTC/USDT"],
  },
  {
    symbol: "ETH/USDT",
    base: "ETH",
    quote: "USDT",
    settle_asset: "USDT",
    kind: "linear",
    price_scale: 2,
    multiplier: "0.01",
    tick_size: "0.01",
    max_qty: "200000",
    impact_qty: "200",
    tiers: tiers(["50000", 100, "0.005"], ["500000", 50, "0.0065"], ["2000000", 20, "0.01"], ["10000000", 10, "0.025"]),
    index_sources: ["ETH/USDT"],
  },
  {
    symbol: "SOL/USDT",
    base: "SOL",
    quote: "USDT",
    settle_asset: "USDT",
    kind: "linear",
    price_scale: 3,
    multiplier: "0.1",
    tick_size: "0.001",
    max_qty: "500000",
    impact_qty: "500",
    tiers: tiers(["20000", 75, "0.01"], ["200000", 25, "0.02"], ["1000000", 10, "0.05"]),
    index_sources: ["SOL/USDT"],
  },
  {
    symbol: "XRP/USDT",
    base: "XRP",
    quote: "USDT",
    settle_asset: "USDT",
    kind: "linear",
    price_scale: 4,
    multiplier: "10",
    tick_size: "0.0001",
    max_qty: "500000",
    impact_qty: "500",
    tiers: tiers(["20000", 75, "0.01"], ["200000", 25, "0.02"], ["1000000", 10, "0.05"]),
    index_sources: ["XRP/USDT"],
  },
  {
    symbol: "BTC/USD",
    base: "BTC",
    quote: "USD",
    settle_asset: "BTC",
    kind: "inverse",
    price_scale: 1,
    multiplier: "100",
    tick_size: "0.5",
    max_qty: "100000",
    impact_qty: "200",
    tiers: tiers(["1", 100, "0.005"], ["10", 50, "0.01"], ["100", 20, "0.02"]),
    index_sources: ["BTC/USDT"],
  },
  {
    symbol: "ETH/USD",
    base: "ETH",
    quote: "USD",
    settle_asset: "ETH",
    kind: "inverse",
    price_scale: 2,
    multiplier: "10",
    tick_size: "0.05",
    max_qty: "100000",
    impact_qty: "200",
    tiers: tiers(["20", 100, "0.005"], ["200", 50, "0.01"], ["2000", 20, "0.02"]),
    index_sources: ["ETH/USDT"],
  },
] as const;

export async function seedContracts(db: Kysely<Database>): Promise<void> {
  const existing = await db.selectFrom("contract_symbol").select("symbol").limit(1).execute();
  if (existing.length) return;
  await db
    .insertInto("contract_symbol")
    .values(
      SEEDED_CONTRACTS.map((c, i) => ({
        ...c,
        tiers: JSON.stringify(c.tiers),
        index_sources: [...c.index_sources],
        min_qty: "1",
        maker_fee_bps: 2,
        taker_fee_bps: 5,
        price_band: "0.05",
        default_leverage: 20,
        sort: (i + 1) * 10,
        index_price: null,
        mark_price: null,
        basis: null,
        premium_sum: null,
        premium_count: null,
        next_funding_at: null,
      })),
    )
    .execute();
}
