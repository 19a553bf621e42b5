import type { MarketItem } from "./market";
import type { Depth, KlinePeriod, PublicTrade, WireCandle } from "./endpoints/market-data";

/**
 * socket.io topics (spec §7 "Real-time") and what each carries. A client emits
 * `subscribe` with a topic (public) or `{ topic, ticket }` (private), and `unsubscribe`.
 * Every push is the event `message` with `{ topic, data }`.
 */
export const topicSymbol = (symbol: string) => symbol.replace("/", "_");

export const topics = {
  /** Tickers of every spot symbol, about every 2 s while something changed. */
  index: "index",
  allSymbolDetail: "all_symbol_detail",
  kline: (symbol: string, period: KlinePeriod) => `kline_${topicSymbol(symbol)}_${period}`,
  depth: (symbol: string) => `depth_${topicSymbol(symbol)}`,
  trade: (symbol: string) => `trade_${topicSymbol(symbol)}`,
  refresh: (memberId: string) => `refresh_${memberId}`,
} as const;

export interface TopicPayloads {
  index: MarketItem[];
  all_symbol_detail: MarketItem[];
  kline: { symbol: string; period: KlinePeriod; candle: WireCandle };
  /** A full snapshot of the top levels; a client keeps the highest `seq` it has seen. */
  depth: Depth;
  trade: { symbol: string; trades: PublicTrade[] };
  /** Something of the member's changed: reload orders and balances (of `symbols`). */
  refresh: { symbols: string[]; orders: boolean; balances: boolean };
}

export interface PushMessage<T = unknown> {
  topic: string;
  data: T;
}
