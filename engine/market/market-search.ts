import type { Kysely } from "kysely";
import { SEARCH_HOT_COUNT, SEARCH_SUGGESTION_COUNT, type SearchAnswer, type SearchRow } from "../../protocol/endpoints/search";
import { compareDecimal } from "../../protocol/money";
import type { MarketItem } from "../../protocol/market";
import type { Database } from "../store/schema";
import type { MarketData } from "./market-data";
import type { ContractListing } from "./market-listing";

/** How long one reading of the tickers serves the searches after it (keystrokes come in bursts). */
const TICKERS_FRESH_MS = 1_000;

/**
 * The header search (spec §2, §5, §9) over the markets the engine keeps in memory: the spot
 * tickers of `MarketData` and the coins' names, read once from the `asset` table and again when an
 * operator lists a market. A search touches no database. The contract list matches the perpetual
 * contracts the same way, from their own tickers (issue 30).
 */
export class MarketSearch {
  private names = new Map<string, string>();
  private rows: { at: number; rows: SearchRow[]; contracts: SearchRow[] } | null = null;

  private constructor(
    private readonly db: Kysely<Database>,
    private readonly market: MarketData,
    private readonly now: () => number,
    private readonly contracts?: ContractListing,
  ) {}

  static async start(db: Kysely<Database>, market: MarketData, now: () => number = Date.now, contracts?: ContractListing): Promise<MarketSearch> {
    const search = new MarketSearch(db, market, now, contracts);
    await search.loadNames();
    return search;
  }

  /** Reads the coins' names again (a market listed with a new base coin brings its name). */
  async loadNames(): Promise<void> {
    const assets = await this.db.selectFrom("asset").select(["code", "name"]).execute();
    this.names = new Map(assets.map((a) => [a.code, a.name]));
    this.rows = null;
  }

  /** Matches of `q` (already validated and trimmed); the hot list without text; suggestions when nothing matches. */
  search(q: string): SearchAnswer {
    const { rows, contracts } = this.tickerRows();
    const contractsListed = contracts.length > 0;
    if (!q) return { q, spot: [], contract: [], contractsListed, hot: hotList(rows, SEARCH_HOT_COUNT), suggestions: [] };
    const spot = rankMatches(rows, q);
    const contract = rankMatches(contracts, q);
    const suggestions = spot.length + contract.length === 0 ? hotList(rows, SEARCH_SUGGESTION_COUNT) : [];
    return { q, spot, contract, contractsListed, hot: [], suggestions };
  }

  private tickerRows(): { rows: SearchRow[]; contracts: SearchRow[] } {
    const now = this.now();
    if (this.rows && now - this.rows.at < TICKERS_FRESH_MS) return this.rows;
    const row = (item: MarketItem) => searchRow(item, this.names.get(item.coin_symbol));
    const rows = this.market.tickerItems().map(row);
    const contracts = this.contracts ? [...this.contracts.tickerItems("linear"), ...this.contracts.tickerItems("inverse")].map(row) : [];
    this.rows = { at: now, rows, contracts };
    return this.rows;
  }
}

/** A market item as a search row; `name` falls back to the coin code. */
export function searchRow(item: MarketItem, name: string | undefined): SearchRow {
  return {
    symbol: item.symbolName,
    base: item.coin_symbol,
    quote: item.quote_symbol,
    name: name ?? item.coin_symbol,
    contract_type: item.contract_type,
    price: item.close,
    change: item.zdf,
    volume: item.amount,
  };
}

/** Highest 24 h quote volume first; markets that have not traded last; ties by symbol. */
export function byVolume(a: SearchRow, b: SearchRow): number {
  if (a.volume !== b.volume) {
    if (a.volume === null) return 1;
    if (b.volume === null) return -1;
    const order = compareDecimal(b.volume, a.volume);
    if (order) return order;
  }
  return a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0;
}

/** The `count` markets of the highest 24 h quote volume (spec §9: 8 hot, 4 suggestions). */
export function hotList(rows: readonly SearchRow[], count: number): SearchRow[] {
  return [...rows].sort(byVolume).slice(0, count);
}

/**
 * How well a row matches the search text (lower is better), or null when it does not (spec §5:
 * case-insensitively inside the coin or the market's name):
 * 0 the coin or the symbol is the text (`eth`, `eth/usdt`, `ETH_USDT`), 1 the coin, symbol or name
 * starts with it, 2 one of them holds it.
 */
export function matchRank(row: SearchRow, q: string): 0 | 1 | 2 | null {
  // toLowerCase is locale-independent (no Turkish dotless i surprises).
  const text = q.trim().toLowerCase();
  if (!text) return null;
  // BTC_USDT, BTC-USDT and "btc usdt" all name BTC/USDT.
  const asSymbol = text.replace(/\s*[_\-\s]\s*/g, "/");
  const base = row.base.toLowerCase();
  const symbol = row.symbol.toLowerCase();
  const name = row.name.toLowerCase();
  if (base === text || symbol === asSymbol) return 0;
  if (base.startsWith(text) || symbol.startsWith(asSymbol) || name.startsWith(text)) return 1;
  if (base.includes(text) || symbol.includes(asSymbol) || name.includes(text)) return 2;
  return null;
}

/** The rows that match `q`, best first: exact coin, then prefix, then contains; within each, by 24 h volume. */
export function rankMatches(rows: readonly SearchRow[], q: string): SearchRow[] {
  return rows
    .flatMap((row) => {
      const rank = matchRank(row, q);
      return rank === null ? [] : [{ row, rank }];
    })
    .sort((a, b) => a.rank - b.rank || byVolume(a.row, b.row))
    .map((entry) => entry.row);
}
