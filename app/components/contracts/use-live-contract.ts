import { useEffect, useState } from "react";
import type { ContractState } from "#protocol/endpoints/contracts";
import type { Depth, KlinePeriod, PublicTrade, WireCandle } from "#protocol/endpoints/market-data";
import { topics } from "#protocol/realtime";
import { mergeCandle } from "~/lib/merge-candle";
import { useTopic } from "~/lib/realtime";
import { usePushReload } from "~/lib/use-push-reload";

interface Initial {
  symbol: string;
  state: ContractState;
  depth: Depth;
  trades: PublicTrade[];
  /** The chart's candles: of the last or the mark price, in one period. */
  chart: { price: "last" | "mark"; period: KlinePeriod; candles: WireCandle[] };
  /** The member's private topic and its ticket, when logged in. */
  privateTopic: { topic: string; ticket: string } | null;
}

/**
 * The contract page's live data: starts from what the server rendered and follows the contract's
 * book, trades and prices (mark, index, funding); the member's own changes (orders, positions,
 * margin, funding paid) reload the page data. A depth push older than the one shown is ignored;
 * a candle push replaces the chart's last candle or adds the next one.
 */
export function useLiveContract(initial: Initial) {
  const [depth, setDepth] = useState(initial.depth);
  const [trades, setTrades] = useState(initial.trades);
  const [state, setState] = useState(initial.state);
  useEffect(() => setDepth((cur) => (cur.symbol !== initial.depth.symbol || initial.depth.seq >= cur.seq ? initial.depth : cur)), [initial.depth]);
  useEffect(() => setTrades(initial.trades), [initial.trades]);
  useEffect(() => setState(initial.state), [initial.state]);
  const [candles, setCandles] = useState(initial.chart.candles);
  useEffect(() => setCandles(initial.chart.candles), [initial.chart.candles]);
  const reload = usePushReload();

  const { symbol } = initial;
  useTopic(topics.contractDepth(symbol), (d) => setDepth((cur) => (d.symbol === symbol && d.seq > cur.seq ? d : cur)), { onResync: reload });
  useTopic(topics.contractTrade(symbol), (p) => {
    if (p.symbol === symbol) setTrades((cur) => [...p.trades, ...cur].slice(0, 60));
  });
  useTopic(topics.contractState(symbol), (s) => {
    if (s.symbolName === symbol) setState(s);
  });
  const { price, period } = initial.chart;
  useTopic(topics.contractKline(symbol, price, period), (p) => {
    if (p.symbol !== symbol || p.source !== price || p.period !== period) return;
    setCandles((cur) => mergeCandle(cur, p.candle));
  });
  useTopic(initial.privateTopic?.topic, reload, { ticket: initial.privateTopic?.ticket, onResync: reload });
  return { depth, trades, state, candles };
}
