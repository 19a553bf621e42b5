import { endpoints } from "#protocol/endpoints";
import type { KlinePeriod } from "#protocol/endpoints/market-data";
import { MARKET_TYPES } from "#protocol/market";
import type { EngineCall } from "../call.server";
import { cachedSymbolRules } from "../symbol-rules.server";

/** Public market data: tickers, a market's book and trades, candles, trading rules. */
export function marketArea(call: EngineCall) {
  return {
    /** Every market of a kind with its 24 h ticker, as the engine reports it. */
    snapshot: (kind: keyof typeof MARKET_TYPES = "spot") => call(endpoints.marketInitData, { query: { type: MARKET_TYPES[kind] } }),
    /** A market's rules, ticker, depth (`levels` per side) and trades; `symbol` as BTC_USDT. */
    goods: (symbol: string, levels?: number) => call(endpoints.spotGoods, { query: { symbol, levels: levels === undefined ? undefined : String(levels) } }),
    candles: (symbol: string, period: KlinePeriod, limit: number) => call(endpoints.klineHistory, { query: { symbol, period, limit: String(limit) } }),
    /** The header search: matches of `q` (validated by the caller), the hot list without text, suggestions when nothing matches. */
    search: (q: string) => call(endpoints.marketSearch, { query: { q } }),
    /** Every spot market's trading rules and fees, fresh from the engine. */
    symbols: () => call(endpoints.spotSymbols),
    /**
     * One market's rules (scales, coins) from the web tier's cache, for checking an order form:
     * scales never change once a market is listed, so an order costs one engine call, not two.
     */
    symbolRules: (symbol: string) => cachedSymbolRules(symbol, () => call(endpoints.spotSymbols)),
  };
}
