import { describe, expect, it } from "vitest";
import { aggregate, applyTrade, changePercent, nextPeriodStart, periodStart, ticker24h, type Candle, type Period } from "./candles";

const at = (iso: string) => Date.parse(iso);

describe("candle periods", () => {
  it.each<[Period, string, string, string]>([
    ["1m", "2026-11-22T10:07:42.123Z", "2026-11-22T10:07:00Z", "2026-11-22T10:08:00Z"],
    ["5m", "2026-11-22T10:07:42Z", "2026-11-22T10:05:00Z", "2026-11-22T10:10:00Z"],
    ["15m", "2026-11-22T10:59:59Z", "2026-11-22T10:45:00Z", "2026-11-22T11:00:00Z"],
    ["30m", "2026-11-22T10:30:00Z", "2026-11-22T10:30:00Z", "2026-11-22T11:00:00Z"],
    ["1h", "2026-11-22T10:07:42Z", "2026-11-22T10:00:00Z", "2026-11-22T11:00:00Z"],
    ["4h", "2026-11-22T10:07:42Z", "2026-11-22T08:00:00Z", "2026-11-22T12:00:00Z"],
    ["1d", "2026-11-22T23:59:59Z", "2026-11-22T00:00:00Z", "2026-11-23T00:00:00Z"],
    // 2026-11-22 is a Sunday: its week began on Monday the 16th.
    ["1w", "2026-11-22T23:59:59Z", "2026-11-16T00:00:00Z", "2026-11-23T00:00:00Z"],
    ["1w", "2026-11-23T00:00:00Z", "2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z"],
    ["1M", "2026-12-31T23:59:59Z", "2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z"],
    ["1M", "2024-02-29T12:00:00Z", "2024-02-01T00:00:00Z", "2024-03-01T00:00:00Z"],
  ])("%s containing %s starts at %s, the next at %s", (period, time, start, next) => {
    expect(periodStart(period, at(time))).toBe(at(start));
    expect(nextPeriodStart(period, at(start))).toBe(at(next));
  });
});

describe("building candles from trades", () => {
  it("opens, extends and rolls candles", () => {
    const series: Candle[] = [];
    applyTrade(series, "1m", { time: at("2026-11-22T10:00:05Z"), price: 100n, quantity: 2n, value: 200n });
    applyTrade(series, "1m", { time: at("2026-11-22T10:00:30Z"), price: 105n, quantity: 1n, value: 105n });
    applyTrade(series, "1m", { time: at("2026-11-22T10:00:59Z"), price: 98n, quantity: 1n, value: 98n });
    applyTrade(series, "1m", { time: at("2026-11-22T10:01:00Z"), price: 99n, quantity: 3n, value: 297n });
    expect(series).toEqual([
      { time: at("2026-11-22T10:00:00Z"), open: 100n, high: 105n, low: 98n, close: 98n, volume: 4n, turnover: 403n },
      { time: at("2026-11-22T10:01:00Z"), open: 99n, high: 99n, low: 99n, close: 99n, volume: 3n, turnover: 297n },
    ]);
  });

  it("aggregates finer candles into coarser ones", () => {
    const minutes: Candle[] = [];
    for (let i = 0; i < 10; i++)
      applyTrade(minutes, "1m", { time: at("2026-11-22T10:00:00Z") + i * 60_000, price: BigInt(100 + i), quantity: 1n, value: BigInt(100 + i) });
    const fives = aggregate(minutes, "5m");
    expect(fives.map((c) => [c.open, c.high, c.low, c.close, c.volume])).toEqual([
      [100n, 104n, 100n, 104n, 5n],
      [105n, 109n, 105n, 109n, 5n],
    ]);
  });

  it("reports a rolling 24 h ticker from minute candles", () => {
    const now = at("2026-11-22T12:00:30Z");
    const minutes: Candle[] = [];
    applyTrade(minutes, "1m", { time: now - 25 * 3_600_000, price: 50n, quantity: 9n, value: 450n }); // too old
    applyTrade(minutes, "1m", { time: now - 23 * 3_600_000, price: 100n, quantity: 1n, value: 100n });
    applyTrade(minutes, "1m", { time: now - 3_600_000, price: 120n, quantity: 2n, value: 240n });
    applyTrade(minutes, "1m", { time: now, price: 110n, quantity: 1n, value: 110n });
    expect(ticker24h(minutes, now)).toEqual({ open: 100n, close: 110n, high: 120n, low: 100n, volume: 4n, turnover: 450n });
    expect(ticker24h(minutes, now + 48 * 3_600_000)).toBeUndefined();
  });

  it.each([
    [100n, 110n, "10"],
    [100n, 90n, "-10"],
    [3n, 4n, "33.33"],
    [3n, 2n, "-33.33"],
    [200000n, 200001n, "0"],
    [8n, 9n, "12.5"],
    [0n, 5n, "0"],
  ])("change from %s to %s is %s%%", (open, close, expected) => {
    expect(changePercent(open, close)).toBe(expected);
  });
});
