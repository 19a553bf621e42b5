import { sql, type Kysely } from "kysely";
import type { KlinePeriod, WireCandle } from "../../protocol/endpoints/market-data";
import { fromMinor, toMinor } from "../../protocol/money";
import { PERIODS, type Candle, type Period } from "../core/market/candles";
import type { Database } from "../store/schema";

/**
 * The k-line tables read back (`spot_kline`, `contract_kline`; written by `CandleRows`): the
 * latest candles a market keeps in memory at start, older ones when a chart pages back past
 * memory, and a candle as the API sends it. Spot markets and contracts share it; a series is named
 * by its symbol, and for a contract by its price too (`source` last or mark).
 */

/** A series' scales: prices, volume (a spot market's base amount; a contract's whole contracts) and turnover (quote or settlement coin). */
export interface CandleScales {
  priceScale: number;
  amountScale: number;
  quoteScale: number;
}

/** One series of a k-line table. */
export type KlineSeries = { table: "spot_kline"; symbol: string } | { table: "contract_kline"; symbol: string; source: "last" | "mark" };

interface CandleRow {
  open_time: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  turnover: string;
}

const COLUMNS = sql`open_time::text as open_time, trim_scale(open)::text as open, trim_scale(high)::text as high, trim_scale(low)::text as low,
  trim_scale(close)::text as close, trim_scale(volume)::text as volume, trim_scale(turnover)::text as turnover`;

const whereSeries = (series: KlineSeries) =>
  series.table === "contract_kline" ? sql`symbol = ${series.symbol} and source = ${series.source}` : sql`symbol = ${series.symbol}`;

export function candleOfRow(r: CandleRow, scales: CandleScales): Candle {
  return {
    time: Number(r.open_time),
    open: toMinor(r.open, scales.priceScale, "down"),
    high: toMinor(r.high, scales.priceScale, "down"),
    low: toMinor(r.low, scales.priceScale, "down"),
    close: toMinor(r.close, scales.priceScale, "down"),
    volume: toMinor(r.volume, scales.amountScale, "down"),
    turnover: toMinor(r.turnover, scales.quoteScale, "down"),
  };
}

export function wireCandle(c: Candle, scales: CandleScales): WireCandle {
  const p = (v: bigint) => fromMinor(v, scales.priceScale);
  return {
    t: c.time,
    o: p(c.open),
    h: p(c.high),
    l: p(c.low),
    c: p(c.close),
    v: fromMinor(c.volume, scales.amountScale),
    a: fromMinor(c.turnover, scales.quoteScale),
  };
}

/** The latest `keep(period)` candles of each period of a series, oldest first, into `into` (at start). */
export async function loadLatestCandles(
  db: Kysely<Database>,
  series: KlineSeries,
  scales: CandleScales,
  keep: (period: Period) => number,
  into: Record<Period, Candle[]>,
): Promise<void> {
  const limits = sql.join(
    PERIODS.map((period) => sql`when ${period} then ${keep(period)}::int`),
    sql` `,
  );
  const rows = await sql<CandleRow & { period: string }>`
    select period, ${COLUMNS}
    from (
      select k.*, row_number() over (partition by period order by open_time desc) as n
      from ${sql.table(series.table)} k where ${whereSeries(series)}
    ) latest
    where n <= case period ${limits} else 0 end
    order by period, open_time
  `.execute(db);
  for (const r of rows.rows) if ((PERIODS as readonly string[]).includes(r.period)) into[r.period as Period].push(candleOfRow(r, scales));
}

/**
 * A series' candles opening at or before `to`, the latest `limit`, oldest first: from `memory`
 * (the latest ones, oldest first), then from the table for what memory no longer keeps.
 */
export async function candlesUpTo(
  db: Kysely<Database>,
  series: KlineSeries,
  scales: CandleScales,
  memory: readonly Candle[],
  query: { period: KlinePeriod; to: number; limit: number },
): Promise<WireCandle[]> {
  let candles = memory.filter((c) => c.time <= query.to).slice(-query.limit);
  if (candles.length < query.limit) {
    const before = candles[0]?.time ?? query.to + 1;
    const older = await sql<CandleRow>`
      select ${COLUMNS} from ${sql.table(series.table)}
      where ${whereSeries(series)} and period = ${query.period} and open_time < ${before}
      order by open_time desc limit ${query.limit - candles.length}
    `.execute(db);
    candles = [...older.rows.reverse().map((r) => candleOfRow(r, scales)), ...candles];
  }
  return candles.map((c) => wireCandle(c, scales));
}
