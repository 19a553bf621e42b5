import { endpoints } from "../../protocol/endpoints";
import type { MarketItem } from "../../protocol/market";
import { sql, type Kysely } from "kysely";
import type { Database } from "../store/schema";
import type { MarketData } from "../market/market-data";
import type { ApiContext } from "./context";
import { registerEndpoint } from "./register";

/**
 * Market snapshot (spec §7 "Market": `market/initData?type`) with each symbol's rolling 24 h
 * ticker computed from its trades; a symbol that has not traded reports an empty ticker.
 */
export function registerMarketRoutes({ app, apiHead, db }: ApiContext, marketData?: MarketData): void {
  registerEndpoint(app, apiHead, endpoints.marketInitData, async ({ query }) => {
    // Spot tickers come from the live market data (minute candles) when the engine trades.
    const live = marketData && (query.type ?? "0") === "0";
    const rows = await db
      .selectFrom("market_symbol")
      .select(["symbol_name", "coin_symbol", "quote_symbol", "contract_type", "avatar"])
      .where("enabled", "=", true)
      .where("contract_type", "=", Number(query.type ?? "0"))
      .orderBy("sort")
      .orderBy("id")
      .execute();
    const tickers = live ? new Map() : await tickers24h(db, rows.map((r) => r.symbol_name));
    return rows.map((row): MarketItem => {
      if (live && marketData.has(row.symbol_name)) return { ...marketData.tickerItem(row.symbol_name), avatar: row.avatar };
      const t = tickers.get(row.symbol_name);
      return {
        symbolName: row.symbol_name,
        coin_symbol: row.coin_symbol,
        quote_symbol: row.quote_symbol,
        contract_type: row.contract_type,
        avatar: row.avatar,
        close: t?.close ?? null,
        high: t?.high ?? null,
        low: t?.low ?? null,
        amount: t?.amount ?? null,
        vol: t?.vol ?? null,
        zdf: t?.zdf ?? null,
      };
    });
  });
}

interface Ticker {
  close: string;
  high: string;
  low: string;
  vol: string;
  amount: string;
  zdf: string;
}

/** Rolling 24 h tickers: last price, high, low, base volume, quote turnover, change in percent (exact NUMERIC). */
async function tickers24h(db: Kysely<Database>, symbols: string[]): Promise<Map<string, Ticker>> {
  if (!symbols.length) return new Map();
  const result = await sql<{ symbol: string; close: string; high: string; low: string; vol: string; amount: string; zdf: string }>`
    with day as (
      select symbol,
             (array_agg(price order by id desc))[1] as close,
             (array_agg(price order by id asc))[1] as open,
             max(price) as high, min(price) as low, sum(quantity) as vol, sum(value) as amount
      from spot_trade
      where created_at > now() - interval '24 hours' and symbol in (${sql.join(symbols)})
      group by symbol
    )
    select symbol, trim_scale(close)::text as close, trim_scale(high)::text as high, trim_scale(low)::text as low,
           trim_scale(vol)::text as vol, trim_scale(amount)::text as amount,
           trim_scale(round((close - open) / open * 100, 2))::text as zdf
    from day
  `.execute(db);
  return new Map(result.rows.map((r) => [r.symbol, r]));
}
