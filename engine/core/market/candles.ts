/**
 * K-line (candle) building: every trade updates the current candle of each period. Pure and
 * synchronous; times are epoch milliseconds (UTC) passed in, prices and volumes `bigint` minor
 * units (price at the symbol's price scale, volume at its amount scale, turnover at the quote
 * asset's scale).
 *
 * Periods: 1m 5m 15m 30m 1h 4h 1d align to multiples of their length since the epoch (UTC);
 * 1w starts on Monday 00:00 UTC; 1M on the first of the month 00:00 UTC.
 */
export const PERIODS = ["1m", "5m", "15m", "30m", "1h", "4h", "1d", "1w", "1M"] as const;
export type Period = (typeof PERIODS)[number];

const MINUTE = 60_000;
const FIXED: Record<Exclude<Period, "1w" | "1M">, number> = {
  "1m": MINUTE,
  "5m": 5 * MINUTE,
  "15m": 15 * MINUTE,
  "30m": 30 * MINUTE,
  "1h": 60 * MINUTE,
  "4h": 240 * MINUTE,
  "1d": 1440 * MINUTE,
};
const WEEK = 7 * 1440 * MINUTE;
/** 1970-01-05 was a Monday. */
const FIRST_MONDAY = 4 * 1440 * MINUTE;

export function isPeriod(value: string): value is Period {
  return (PERIODS as readonly string[]).includes(value);
}

/** Start of the candle of `period` that contains `time`. */
export function periodStart(period: Period, time: number): number {
  if (period === "1w") return time - ((((time - FIRST_MONDAY) % WEEK) + WEEK) % WEEK);
  if (period === "1M") {
    const d = new Date(time);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const length = FIXED[period];
  return time - (((time % length) + length) % length);
}

/** Start of the candle after the one starting at `start`. */
export function nextPeriodStart(period: Period, start: number): number {
  if (period === "1w") return start + WEEK;
  if (period === "1M") {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return start + FIXED[period];
}

export interface Candle {
  /** Open time (ms). */
  time: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  /** Base volume. */
  volume: bigint;
  /** Quote turnover. */
  turnover: bigint;
}

export interface CandleTrade {
  time: number;
  price: bigint;
  quantity: bigint;
  value: bigint;
}

/** An empty series of every period. */
export function emptySeries(): Record<Period, Candle[]> {
  return Object.fromEntries(PERIODS.map((p) => [p, [] as Candle[]])) as unknown as Record<Period, Candle[]>;
}

/** Folds one trade into a candle series' latest candle, or starts a new one. Returns the candle touched. */
export function applyTrade(series: Candle[], period: Period, trade: CandleTrade): Candle {
  const start = periodStart(period, trade.time);
  const last = series[series.length - 1];
  if (last && last.time === start) {
    if (trade.price > last.high) last.high = trade.price;
    if (trade.price < last.low) last.low = trade.price;
    last.close = trade.price;
    last.volume += trade.quantity;
    last.turnover += trade.value;
    return last;
  }
  if (last && last.time > start) {
    // A trade stamped before the latest candle (clock step back): count it in the latest.
    last.volume += trade.quantity;
    last.turnover += trade.value;
    return last;
  }
  const candle: Candle = {
    time: start,
    open: trade.price,
    high: trade.price,
    low: trade.price,
    close: trade.price,
    volume: trade.quantity,
    turnover: trade.value,
  };
  series.push(candle);
  return candle;
}

/** Aggregates finer candles (in time order) into `period` candles. */
export function aggregate(candles: readonly Candle[], period: Period): Candle[] {
  const out: Candle[] = [];
  for (const c of candles) {
    const start = periodStart(period, c.time);
    const last = out[out.length - 1];
    if (last && last.time === start) {
      if (c.high > last.high) last.high = c.high;
      if (c.low < last.low) last.low = c.low;
      last.close = c.close;
      last.volume += c.volume;
      last.turnover += c.turnover;
    } else out.push({ ...c, time: start });
  }
  return out;
}

export interface Ticker {
  open: bigint;
  close: bigint;
  high: bigint;
  low: bigint;
  volume: bigint;
  turnover: bigint;
}

/**
 * Rolling 24 h ticker from 1-minute candles (in time order): the candles whose minute started
 * within the last 24 h. Undefined when none traded.
 */
export function ticker24h(minutes: readonly Candle[], now: number): Ticker | undefined {
  const since = periodStart("1m", now) - 1439 * MINUTE;
  let i = minutes.length;
  while (i > 0 && minutes[i - 1]!.time >= since) i--;
  if (i === minutes.length) return undefined;
  const first = minutes[i]!;
  const t: Ticker = { open: first.open, close: first.close, high: first.high, low: first.low, volume: 0n, turnover: 0n };
  for (let j = i; j < minutes.length; j++) {
    const c = minutes[j]!;
    if (c.high > t.high) t.high = c.high;
    if (c.low < t.low) t.low = c.low;
    t.close = c.close;
    t.volume += c.volume;
    t.turnover += c.turnover;
  }
  return t;
}

/** Change from open to close in percent, rounded half away from zero to 2 decimals, as a decimal string. */
export function changePercent(open: bigint, close: bigint): string {
  if (open === 0n) return "0";
  const diff = (close - open) * 10_000n;
  const negative = diff < 0n;
  const abs = negative ? -diff : diff;
  let hundredths = abs / open;
  if ((abs % open) * 2n >= open) hundredths += 1n;
  const whole = hundredths / 100n;
  const frac = (hundredths % 100n).toString().padStart(2, "0").replace(/0+$/, "");
  const text = frac ? `${whole}.${frac}` : `${whole}`;
  return negative && hundredths !== 0n ? `-${text}` : text;
}
