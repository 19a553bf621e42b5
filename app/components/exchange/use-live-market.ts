import { useEffect, useState } from "react";
import type { Depth, KlinePeriod, PublicTrade, WireCandle } from "#protocol/endpoints/market-data";
import type { MarketItem } from "#protocol/market";
import { topics } from "#protocol/realtime";
import { mergeCandle } from "~/lib/merge-candle";
import { useTopic } from "~/lib/realtime";
import { usePushReload } from "~/lib/use-push-reload";

interface Initial {
  symbol: string;
  period: KlinePeriod;
  depth: Depth;
  trades: PublicTrade[];
  markets: MarketItem[];
  candles: WireCandle[];
  /** The member's private topic and its ticket, when logged in. */
  privateTopic: { topic: string; ticket: string } | null;
}

/**
 * The trading page's live data: starts from what the server rendered and follows the symbol's
 * depth, trades and candles and every market's ticker; the member's own changes (orders, balances)
 * reload the page data. Depth pushes are complete snapshots of the top levels, so a missed one
 * leaves nothing wrong behind: the next replaces it. One older than the one shown is ignored (its
 * `seq` is lower; `seq` keeps growing across engine restarts). After a reconnect the page data is
 * reloaded, since trades and candles may have been missed.
 */
export function useLiveMarket(initial: Initial) {
  const [depth, setDepth] = useState(initial.depth);
  const [trades, setTrades] = useState(initial.trades);
  const [markets, setMarkets] = useState(initial.markets);
  const [candles, setCandles] = useState(initial.candles);

  // New page data (another symbol or period, or a reload) replaces what the pushes built.
  useEffect(() => setDepth((cur) => (cur.symbol !== initial.depth.symbol || initial.depth.seq >= cur.seq ? initial.depth : cur)), [initial.depth]);
  useEffect(() => setTrades(initial.trades), [initial.trades]);
  useEffect(() => setMarkets(initial.markets), [initial.markets]);
  useEffect(() => setCandles(initial.candles), [initial.candles]);

  const reload = usePushReload();

  const { symbol, period } = initial;
  useTopic(topics.depth(symbol), (d) => setDepth((cur) => (d.symbol === symbol && d.seq > cur.seq ? d : cur)), { onResync: reload });
  useTopic(topics.trade(symbol), (p) => {
    if (p.symbol === symbol) setTrades((cur) => [...p.trades, ...cur].slice(0, 60));
  });
  useTopic(topics.kline(symbol, period), (p) => {
    if (p.symbol !== symbol || p.period !== period) return;
    setCandles((cur) => mergeCandle(cur, p.candle));
  });
  useTopic(topics.allSymbolDetail, (items) => setMarkets(items));
  useTopic(initial.privateTopic?.topic, reload, { ticket: initial.privateTopic?.ticket, onResync: reload });

  const ticker = markets.find((m) => m.symbolName === symbol);
  return { depth, trades, markets, candles, ticker };
}
