import { sql, type Kysely } from "kysely";
import type { MarketItem } from "../../protocol/market";
import type { Database } from "../store/schema";
import type { MarketData } from "./market-data";

interface Ticker {
  close: string;
  high: string;
  low: string;
  vol: string;
  amount: string;
  zdf: string;
}

/**
 * The market snapshot of the home page and the market list (spec §7 `market/initData?type`): the
 * listed symbols of a contract type with each one's rolling 24 h ticker. Spot tickers come from
 * the live market data (minute candles) when the engine trades; otherwise from the trades table,
 * and a symbol that has not traded reports an empty ticker.
 */
export class MarketListing {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly marketData?: MarketData,
  ) {}

  async items(type: "0" | "1" | "2" = "0"): Promise<MarketItem[]> {
    const live = this.marketData && type === "0" ? this.marketData : undefined;
    const rows = await this.db
      .selectFrom("market_symbol")
      .select(["symbol_name", "coin_symbol", "quote_symbol", "contract_type", "avatar"])
      .where("enabled", "=", true)
      .where("contract_type", "=", Number(type))
      .orderBy("sort")
      .orderBy("id")
      .execute();
    const tickers = live ? new Map<string, Ticker>() : await this.tickers24h(rows.map((r) => r.symbol_name));
    return rows.map((row): MarketItem => {
      if (live?.has(row.symbol_name)) return { ...live.tickerItem(row.symbol_name), avatar: row.avatar };
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
  }

  /** Rolling 24 h tickers: last price, high, low, base volume, quote turnover, change in percent (exact NUMERIC). */
  private async tickers24h(symbols: string[]): Promise<Map<string, Ticker>> {
    if (!symbols.length) return new Map();
    const result = await sql<Ticker & { symbol: string }>`
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
    `.execute(this.db);
    return new Map(result.rows.map((r) => [r.symbol, r]));
  }
}
