import { fromMinor } from "../../protocol/money";
import { PERIODS, periodStart, type Period } from "../core/market/candles";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import { json } from "../journal/sql-script";

interface Scales {
  priceScale: number;
  amountScale: number;
  quoteScale: number;
}

interface Part {
  symbol: string;
  period: Period;
  time: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  turnover: bigint;
  scales: Scales;
}

/**
 * The k-line rows of one batch, a projection of its trade events (decision 017, step 6): each
 * trade folds into its candle of every period, and the batch writes one row per touched candle
 * that merges into the stored one: the first open stays, high and low widen, close is the
 * latest, volume and turnover add up. The projector writes each batch exactly once (with its
 * cursor), so the merge counts every trade once, also when a start replays the journal the
 * tables had not caught up with after a crash.
 */
export class CandleRows implements ProjectionRows {
  private readonly parts = new Map<string, Part>();

  /** A trade at `at` (ms): price, quantity and quote value in minor units at `scales`. */
  addTrade(symbol: string, at: number, price: bigint, quantity: bigint, value: bigint, scales: Scales): void {
    for (const period of PERIODS) {
      const time = periodStart(period, at);
      const key = `${symbol}|${period}|${time}`;
      const part = this.parts.get(key);
      if (!part) {
        this.parts.set(key, { symbol, period, time, open: price, high: price, low: price, close: price, volume: quantity, turnover: value, scales });
        continue;
      }
      if (price > part.high) part.high = price;
      if (price < part.low) part.low = price;
      part.close = price;
      part.volume += quantity;
      part.turnover += value;
    }
  }

  statements(): string[] {
    if (!this.parts.size) return [];
    const rows = [...this.parts.values()].map((p) => {
      const price = (v: bigint) => fromMinor(v, p.scales.priceScale);
      return {
        symbol: p.symbol,
        period: p.period,
        open_time: String(p.time),
        open: price(p.open),
        high: price(p.high),
        low: price(p.low),
        close: price(p.close),
        volume: fromMinor(p.volume, p.scales.amountScale),
        turnover: fromMinor(p.turnover, p.scales.quoteScale),
      };
    });
    return [
      `insert into spot_kline as k (symbol, period, open_time, open, high, low, close, volume, turnover)
        select symbol, period, open_time, open, high, low, close, volume, turnover from json_populate_recordset(null::spot_kline, ${json(rows)})
        on conflict (symbol, period, open_time) do update set high = greatest(k.high, excluded.high), low = least(k.low, excluded.low),
          close = excluded.close, volume = k.volume + excluded.volume, turnover = k.turnover + excluded.turnover`,
    ];
  }
}

/** After spot's rows, before the ledger's. */
export const CANDLE_ROWS: RowsKind<CandleRows> = { name: "candles", order: 20, create: () => new CandleRows() };
