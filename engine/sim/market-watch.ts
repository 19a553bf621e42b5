import type { AppliedCommand } from "../journal/product";
import type { SpotService } from "../spot/spot-service";

/**
 * Figures of the spot markets as they trade, for the sim report (`npm run bench -- sim`) and the
 * simulator's tests: each print against the touch that stood just before it (the core applies
 * commands one at a time, so the book after one command is the book the next one met), the gap
 * between consecutive prints, the range of each hour, and — sampled after each tick — the spread
 * and the number of price levels a side. Ratios are numbers (a report); prices stay bigint.
 */
export interface MarketFigures {
  symbol: string;
  prints: number;
  /** Prints above the best ask or below the best bid that stood before them (a sweep). */
  printsOutsideSpread: number;
  /** Largest move between two consecutive prints, in basis points of the first. */
  maxPrintGapBps: number;
  /** High less low of the prints in each clock hour, in percent of the low (oldest hour first). */
  hourlyRangePct: number[];
  /** High less low of all prints, in percent of the low. */
  rangePct: number;
  spreadBps: { median: number; max: number };
  /** Fewest levels seen on each side at a sample. */
  minLevels: { bids: number; asks: number };
  /** Samples where the book was crossed or one side was empty. */
  brokenSamples: number;
}

interface Watched {
  bid?: bigint;
  ask?: bigint;
  lastPrint?: bigint;
  prints: number;
  outside: number;
  maxGapBps: number;
  hours: Map<number, { high: bigint; low: bigint }>;
  high?: bigint;
  low?: bigint;
  spreads: number[];
  minBids: number;
  minAsks: number;
  broken: number;
}

const HOUR = 3_600_000;

export class MarketWatch {
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly spot: SpotService) {
    for (const symbol of spot.markets.keys()) {
      this.watched.set(symbol, { prints: 0, outside: 0, maxGapBps: 0, hours: new Map(), spreads: [], minBids: Infinity, minAsks: Infinity, broken: 0 });
      this.rememberTouch(symbol);
    }
    spot.durable.onEvents((applied) => this.applied(applied));
  }

  /** Records each market's spread and levels now (call after each tick). */
  sampleBooks(levels = 100): void {
    for (const [symbol, w] of this.watched) {
      const { bids, asks } = this.spot.markets.get(symbol)!.book.depth(levels);
      w.minBids = Math.min(w.minBids, bids.length);
      w.minAsks = Math.min(w.minAsks, asks.length);
      const bid = bids[0]?.[0];
      const ask = asks[0]?.[0];
      if (bid === undefined || ask === undefined || bid >= ask) {
        w.broken++;
        continue;
      }
      w.spreads.push(bps(ask - bid, (ask + bid) / 2n));
    }
  }

  figures(): MarketFigures[] {
    return [...this.watched].map(([symbol, w]) => {
      const spreads = [...w.spreads].sort((a, b) => a - b);
      return {
        symbol,
        prints: w.prints,
        printsOutsideSpread: w.outside,
        maxPrintGapBps: w.maxGapBps,
        hourlyRangePct: [...w.hours.entries()].sort(([a], [b]) => a - b).map(([, h]) => percent(h.high - h.low, h.low)),
        rangePct: w.high === undefined || w.low === undefined ? 0 : percent(w.high - w.low, w.low),
        spreadBps: { median: spreads[Math.floor(spreads.length / 2)] ?? NaN, max: spreads[spreads.length - 1] ?? NaN },
        minLevels: { bids: w.minBids, asks: w.minAsks },
        brokenSamples: w.broken,
      };
    });
  }

  private applied({ events, at }: AppliedCommand): void {
    const touched = new Set<string>();
    for (const t of events) {
      if (!("symbol" in t) || !this.watched.has(t.symbol)) continue;
      touched.add(t.symbol);
      if (t.type !== "trade") continue;
      const w = this.watched.get(t.symbol)!;
      w.prints++;
      if ((w.bid !== undefined && t.price < w.bid) || (w.ask !== undefined && t.price > w.ask)) w.outside++;
      if (w.lastPrint !== undefined) {
        const gap = t.price > w.lastPrint ? t.price - w.lastPrint : w.lastPrint - t.price;
        w.maxGapBps = Math.max(w.maxGapBps, bps(gap, w.lastPrint));
      }
      w.lastPrint = t.price;
      const hour = Math.floor(at / HOUR);
      const h = w.hours.get(hour);
      if (!h) w.hours.set(hour, { high: t.price, low: t.price });
      else {
        if (t.price > h.high) h.high = t.price;
        if (t.price < h.low) h.low = t.price;
      }
      if (w.high === undefined || t.price > w.high) w.high = t.price;
      if (w.low === undefined || t.price < w.low) w.low = t.price;
    }
    for (const symbol of touched) this.rememberTouch(symbol);
  }

  private rememberTouch(symbol: string): void {
    const w = this.watched.get(symbol)!;
    const { bids, asks } = this.spot.markets.get(symbol)!.book.depth(1);
    w.bid = bids[0]?.[0];
    w.ask = asks[0]?.[0];
  }
}

/** `part` in basis points of `whole` (a report figure, to two decimals). */
export function bps(part: bigint, whole: bigint): number {
  return whole === 0n ? NaN : Number((part * 1_000_000n) / whole) / 100;
}

/** `part` in percent of `whole` (a report figure, to four decimals). */
export function percent(part: bigint, whole: bigint): number {
  return whole === 0n ? NaN : Number((part * 1_000_000n) / whole) / 10_000;
}
