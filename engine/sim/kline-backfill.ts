import type { Kysely } from "kysely";
import { fromMinor, toMinor } from "../../protocol/money";
import { aggregate, nextPeriodStart, periodStart, type Candle, type Period } from "../core/market/candles";
import type { SpotService } from "../spot/spot-service";
import type { Database } from "../store/schema";
import { DEMO_MARKETS } from "./demo-markets";
import { MEAN_TAKER_USDT, TAKERS_PER_SECOND } from "./market-simulator";
import { seeded } from "./seeded-random";

/**
 * Demo history (simulated liquidity only): on the first start, each demo market that has neither
 * candles nor trades gets a seeded random-walk history that ends at its start price, so every
 * k-line period can draw a chart at once: minutes for the last ~2 days (1m–30m), hours for the
 * 4 weeks before (1h, 4h) and days for the 3 years before that (1d, 1w, 1M: enough months for MA30). Coarser periods are
 * aggregated from finer ones, so the periods agree with each other where they overlap.
 *
 * It moves as the live walk does (the market's `volatilityPerDay`, scaled to each period's
 * length), and its last close, in every period, is exactly the start price, which is where the
 * simulator's walk starts (it starts from the last minute's close): live candles join the drawn
 * ones without a cliff.
 */
const DAY = 86_400_000;

export async function backfillKlines(db: Kysely<Database>, spot: SpotService, now = Date.now(), seed = 20261122): Promise<string[]> {
  const filled: string[] = [];
  for (const [i, demo] of DEMO_MARKETS.entries()) {
    const market = spot.markets.get(demo.symbol);
    if (!market) continue;
    const hasCandles = await db.selectFrom("spot_kline").select("symbol").where("symbol", "=", demo.symbol).limit(1).executeTakeFirst();
    const hasTrades = await db.selectFrom("spot_trade").select("id").where("symbol", "=", demo.symbol).limit(1).executeTakeFirst();
    if (hasCandles || hasTrades) continue;
    const c = market.config;
    const series = history({
      now,
      end: toMinor(demo.start, c.priceScale),
      volatilityPerDay: demo.volatilityPerDay,
      priceScale: c.priceScale,
      amountScale: c.amountScale,
      valueFactor: 10n ** BigInt(c.quoteAssetScale - c.priceScale - c.amountScale),
      // About what the simulator's takers trade per minute, so the live candles continue the
      // history at the same height.
      typicalQuantity: (TAKERS_PER_SECOND * 60 * MEAN_TAKER_USDT * demo.weight) / 100 / Number(demo.start),
      random: seeded(seed + i * 104_729),
    });
    const rows = Object.entries(series).flatMap(([period, candles]) =>
      candles.map((k) => ({
        symbol: demo.symbol,
        period,
        open_time: String(k.time),
        open: fromMinor(k.open, c.priceScale),
        high: fromMinor(k.high, c.priceScale),
        low: fromMinor(k.low, c.priceScale),
        close: fromMinor(k.close, c.priceScale),
        volume: fromMinor(k.volume, c.amountScale),
        turnover: fromMinor(k.turnover, c.quoteAssetScale),
      })),
    );
    await db.transaction().execute(async (trx) => {
      for (let j = 0; j < rows.length; j += 1000)
        await trx
          .insertInto("spot_kline")
          .values(rows.slice(j, j + 1000))
          .execute();
    });
    filled.push(demo.symbol);
  }
  return filled;
}

interface HistoryOptions {
  now: number;
  /** Price the history ends at (minor units): every period's last close. */
  end: bigint;
  /** Standard deviation of a day's log return. */
  volatilityPerDay: number;
  priceScale: number;
  amountScale: number;
  valueFactor: bigint;
  typicalQuantity: number;
  random: () => number;
}

/** Every period's candles of one symbol, oldest first. */
export function history(o: HistoryOptions): Record<Period, Candle[]> {
  const minuteStart = periodStart("1h", o.now) - 47 * 3_600_000;
  const hourStart = periodStart("1d", minuteStart) - 28 * DAY;
  const dayStart = hourStart - 1_100 * DAY;

  // Walk backwards from the end price: minutes, then hours before them, then days; a period's
  // step has the deviation of the daily one scaled by the square root of its share of a day.
  const v = o.volatilityPerDay;
  const minutes = walk(o, "1m", minuteStart, periodStart("1m", o.now), o.end, v / Math.sqrt(1_440), 1);
  const hours = walk(o, "1h", hourStart, minuteStart - 1, minutes[0]!.open, v / Math.sqrt(24), 60);
  const days = walk(o, "1d", dayStart, hourStart - 1, hours[0]!.open, v, 1_440);

  const hourly = [...hours, ...aggregate(minutes, "1h")];
  const daily = [...days, ...aggregate(hourly, "1d")];
  return {
    "1m": minutes,
    "5m": aggregate(minutes, "5m"),
    "15m": aggregate(minutes, "15m"),
    "30m": aggregate(minutes, "30m"),
    "1h": hourly,
    "4h": aggregate(hourly, "4h"),
    "1d": daily,
    "1w": aggregate(daily, "1w"),
    "1M": aggregate(daily, "1M"),
  };
}

/**
 * Candles of `period` from `from` to `to` (open times) whose last close is exactly `endPrice`;
 * `deviation` is the standard deviation of one candle's log return.
 */
function walk(o: HistoryOptions, period: Period, from: number, to: number, endPrice: bigint, deviation: number, volumeFactor: number): Candle[] {
  const times: number[] = [];
  for (let t = periodStart(period, from); t <= to; t = nextPeriodStart(period, t)) times.push(t);
  const unit = 10 ** o.priceScale;
  const closes: number[] = new Array(times.length);
  let price = Number(endPrice) / unit;
  for (let i = times.length - 1; i >= 0; i--) {
    closes[i] = price;
    // Gaussian-ish step: a sum of three uniforms less 1.5 has a deviation of 1/2.
    const step = (o.random() + o.random() + o.random() - 1.5) * 2 * deviation;
    price = price / Math.exp(step);
  }
  const toPrice = (x: number) => BigInt(Math.max(1, Math.round(x * unit)));
  const amountUnit = 10 ** o.amountScale;
  const candles: Candle[] = [];
  let open = price;
  for (let i = 0; i < times.length; i++) {
    const close = closes[i]!;
    // Wicks of up to a deviation beyond the body.
    const high = Math.max(open, close) * (1 + o.random() * deviation);
    const low = Math.min(open, close) / (1 + o.random() * deviation);
    // Around the typical volume (a factor of 0.2 to 1.8, 1 on average).
    const quantity = BigInt(Math.max(1, Math.round(o.typicalQuantity * volumeFactor * (0.2 + o.random() * 1.6) * amountUnit)));
    // The last close is the end price itself, not its round trip through a float.
    const last = i === times.length - 1;
    const c: Candle = {
      time: times[i]!,
      open: toPrice(open),
      high: toPrice(high),
      low: toPrice(low),
      close: last ? endPrice : toPrice(close),
      volume: quantity,
      turnover: 0n,
    };
    if (c.high < c.open) c.high = c.open;
    if (c.high < c.close) c.high = c.close;
    if (c.low > c.open) c.low = c.open;
    if (c.low > c.close) c.low = c.close;
    c.turnover = ((c.open + c.close) / 2n) * quantity * o.valueFactor;
    candles.push(c);
    open = close;
  }
  return candles;
}
