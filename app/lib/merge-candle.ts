import type { WireCandle } from "#protocol/endpoints/market-data";

/** Candles a live chart keeps. */
const KEEP = 1000;

/** A pushed candle into a chart's candles: it replaces the last one (the same open time) or follows it; an older one is ignored. */
export function mergeCandle(candles: WireCandle[], candle: WireCandle): WireCandle[] {
  const last = candles[candles.length - 1];
  if (last && last.t === candle.t) return [...candles.slice(0, -1), candle];
  if (!last || candle.t > last.t) return [...candles, candle].slice(-KEEP);
  return candles;
}
