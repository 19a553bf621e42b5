import type { Kysely, Selectable } from "kysely";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { MARGIN_RATE_SCALE } from "../core/margin/margin";
import { minorOf } from "../store/bulk-restore";
import type { Database, MarginPairTable, MarginPoolTable } from "../store/schema";

/**
 * Margin's configuration of a fresh install (issue 31, decision 050): lending pools for the coins
 * of the four largest markets, their hourly rates (a year's simple interest: USDT about 8.8 %,
 * BTC 2.6 %, ETH 3.5 %, SOL and XRP 7 %), and those markets on margin, 10x isolated for BTC and
 * ETH, 5x for SOL and XRP. Seeded while the tables are empty; operators keep them afterwards.
 */
export const SEEDED_POOLS = [
  { asset: "USDT", hourly_rate: "0.00001", lend_limit: "5000000", min_borrow: "1", sort: 10 },
  { asset: "BTC", hourly_rate: "0.000003", lend_limit: "100", min_borrow: "0.0001", sort: 20 },
  { asset: "ETH", hourly_rate: "0.000004", lend_limit: "2000", min_borrow: "0.001", sort: 30 },
  { asset: "SOL", hourly_rate: "0.000008", lend_limit: "50000", min_borrow: "0.01", sort: 40 },
  { asset: "XRP", hourly_rate: "0.000008", lend_limit: "5000000", min_borrow: "1", sort: 50 },
] as const;

export const SEEDED_PAIRS = [
  { symbol: "BTC/USDT", base: "BTC", quote: "USDT", max_leverage: 10, sort: 10 },
  { symbol: "ETH/USDT", base: "ETH", quote: "USDT", max_leverage: 10, sort: 20 },
  { symbol: "SOL/USDT", base: "SOL", quote: "USDT", max_leverage: 5, sort: 30 },
  { symbol: "XRP/USDT", base: "XRP", quote: "USDT", max_leverage: 5, sort: 40 },
] as const;

export interface MarginConfigRows {
  pools: Array<Selectable<MarginPoolTable>>;
  pairs: Array<Selectable<MarginPairTable>>;
}

export async function seedMargin(db: Kysely<Database>): Promise<void> {
  if (!(await db.selectFrom("margin_pool").select("asset").limit(1).executeTakeFirst()))
    await db
      .insertInto("margin_pool")
      .values([...SEEDED_POOLS])
      .execute();
  if (!(await db.selectFrom("margin_pair").select("symbol").limit(1).executeTakeFirst()))
    await db
      .insertInto("margin_pair")
      .values([...SEEDED_PAIRS])
      .execute();
}

export async function marginConfigRows(db: Kysely<Database>): Promise<MarginConfigRows> {
  const [pools, pairs] = await Promise.all([
    db.selectFrom("margin_pool").selectAll().orderBy("sort").orderBy("asset").execute(),
    db.selectFrom("margin_pair").selectAll().orderBy("sort").orderBy("symbol").execute(),
  ]);
  return { pools, pairs };
}

/**
 * Configures the pools and pairs the core does not hold yet, whose coins and markets it lists (a
 * pair's coins need a pool each to be borrowed; a coin without one is only held). True: some.
 */
export function configureMargin(core: ExchangeCore, rows: MarginConfigRows): boolean {
  let configured = false;
  for (const p of rows.pools) {
    const scale = core.assetScales.get(p.asset);
    if (scale === undefined || core.margin.pools.has(p.asset)) continue;
    core.margin.configurePool({
      asset: p.asset,
      hourlyRate: minorOf(String(p.hourly_rate), MARGIN_RATE_SCALE),
      limit: minorOf(String(p.lend_limit), scale),
      minBorrow: minorOf(String(p.min_borrow), scale),
    });
    configured = true;
  }
  for (const p of rows.pairs) {
    if (!core.markets.has(p.symbol) || core.margin.pairs.has(p.symbol)) continue;
    core.margin.configurePair({ symbol: p.symbol, base: p.base, quote: p.quote, maxLeverage: p.max_leverage });
    configured = true;
  }
  return configured;
}
