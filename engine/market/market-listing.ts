import { sql, type Kysely } from "kysely";
import type { MarketItem } from "../../protocol/market";
import type { ConfigVersion } from "../configuration/config-version";
import type { Database } from "../store/schema";
import type { MarketData } from "./market-data";

interface ListedRow {
  symbol_name: string;
  coin_symbol: string;
  quote_symbol: string;
  contract_type: number;
  avatar: string | null;
}

interface Ticker {
  close: string;
  high: string;
  low: string;
  vol: string;
  amount: string;
  zdf: string;
}

/** The perpetual contracts' market items of a type (1 USDT-margined, 2 coin-margined) and what they depend on (ContractTape). */
export interface ContractListing {
  tickerItems(kind: "linear" | "inverse"): MarketItem[];
  tickerVersion(): string;
}

/**
 * The market snapshot of the home page and the market list (spec §7 `market/initData?type`): the
 * listed symbols of a contract type with each one's rolling 24 h ticker. Spot tickers come from
 * the live market data (minute candles) when the engine trades; otherwise from the trades table,
 * and a symbol that has not traded reports an empty ticker. Types 1 and 2 are the perpetual
 * contracts the engine trades (issue 30), from their own market data.
 */
export class MarketListing {
  /** The listed rows of each contract type, kept until the configuration (market_symbol among it) changes. */
  private readonly listed = new Map<string, Promise<ListedRow[]>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly marketData?: MarketData,
    private readonly configVersion?: ConfigVersion,
    private readonly contracts?: ContractListing,
  ) {
    configVersion?.onChange(() => this.listed.clear());
  }

  /**
   * What `items(type)` answers depends on: the listing (the configuration's changes) and, for live
   * spot, each market's answer version. Without live data the tickers come from the trades
   * table, which no version follows: a version that never repeats.
   */
  version(type: "0" | "1" | "2" = "0"): string {
    if (type !== "0" && this.contracts) return `contracts:${type}:${this.contracts.tickerVersion()}`;
    const live = this.marketData && type === "0" ? this.marketData : undefined;
    if (!live || !this.configVersion) return `now:${performance.now()}`;
    let version = `${this.configVersion.current}`;
    for (const symbol of live.symbolNames()) version += `|${live.answerVersion(symbol)}`;
    return version;
  }

  async items(type: "0" | "1" | "2" = "0"): Promise<MarketItem[]> {
    if (type !== "0" && this.contracts) return this.contracts.tickerItems(type === "1" ? "linear" : "inverse");
    const live = this.marketData && type === "0" ? this.marketData : undefined;
    const rows = await this.rowsOf(type);
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

  private rowsOf(type: "0" | "1" | "2"): Promise<ListedRow[]> {
    let rows = this.configVersion ? this.listed.get(type) : undefined;
    if (!rows) {
      rows = this.db
        .selectFrom("market_symbol")
        .select(["symbol_name", "coin_symbol", "quote_symbol", "contract_type", "avatar"])
        .where("enabled", "=", true)
        .where("contract_type", "=", Number(type))
        .orderBy("sort")
        .orderBy("id")
        .execute();
      if (this.configVersion) {
        this.listed.set(type, rows);
        // A failed read is not kept.
        rows.catch(() => this.listed.delete(type));
      }
    }
    return rows;
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
