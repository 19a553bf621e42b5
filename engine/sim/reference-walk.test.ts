import { describe, expect, it } from "vitest";
import { toMinor } from "../../protocol/money";
import { DEMO_MARKETS } from "./demo-markets";
import { percent } from "./market-watch";
import { ReferenceWalk } from "./reference-walk";
import { seeded } from "./seeded-random";

/** High less low of the walk's prices over `steps` steps of `seconds`, in percent of the low. */
function rangeOver(walk: ReferenceWalk, steps: number, seconds: number): number {
  let high = walk.price;
  let low = walk.price;
  for (let i = 0; i < steps; i++) {
    const p = walk.step(seconds);
    if (p > high) high = p;
    if (p < low) low = p;
  }
  return percent(high - low, low);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function walkOf(m: (typeof DEMO_MARKETS)[number], seed: number, start?: bigint) {
  const anchor = toMinor(m.start, m.priceScale);
  return new ReferenceWalk({ anchor, start: start ?? anchor, volatilityPerDay: m.volatilityPerDay, tick: toMinor(m.tick, m.priceScale), random: seeded(seed) });
}

describe("the demo markets' reference walk", () => {
  it("moves each market a few tenths of a percent an hour and a few percent a day, at one step a second", () => {
    for (const [i, m] of DEMO_MARKETS.entries()) {
      const walk = walkOf(m, 11 + i);
      const hours = Array.from({ length: 24 }, () => rangeOver(walk, 3_600, 1));
      // The first simulator moved 9 % an hour (0.15 % a second, no reversion).
      expect(Math.max(...hours), m.symbol).toBeLessThan(2.5);
      expect(median(hours), m.symbol).toBeGreaterThan(0.15);
      expect(median(hours), m.symbol).toBeLessThan(1.5);
      const day = rangeOver(walkOf(m, 11 + i), 86_400, 1);
      expect(day, m.symbol).toBeGreaterThan(0.5);
      expect(day, m.symbol).toBeLessThan(10);
    }
  });

  it("reverts to its anchor: two months never stray beyond a band, and days keep a real market's range (BTC calmer than DOGE)", () => {
    const medians = new Map<string, number>();
    for (const [i, m] of DEMO_MARKETS.entries()) {
      const anchor = toMinor(m.start, m.priceScale);
      const walk = walkOf(m, 101 + i);
      const days: number[] = [];
      let farthest = 0;
      for (let d = 0; d < 60; d++) {
        days.push(rangeOver(walk, 1_440, 60));
        const p = walk.price;
        farthest = Math.max(farthest, percent(p > anchor ? p - anchor : anchor - p, anchor));
      }
      expect(farthest, m.symbol).toBeLessThan(20);
      expect(median(days), m.symbol).toBeGreaterThan(1);
      expect(median(days), m.symbol).toBeLessThan(8);
      expect(Math.max(...days), m.symbol).toBeLessThan(15);
      medians.set(m.symbol, median(days));
    }
    expect(medians.get("BTC/USDT")!).toBeLessThan(medians.get("DOGE/USDT")!);
  });

  it("starts exactly at the price it is given, on the tick grid, and pulls a far start back", () => {
    const btc = DEMO_MARKETS[0];
    const start = toMinor("70000.01", btc.priceScale);
    const walk = walkOf(btc, 5, start);
    expect(walk.price).toBe(start);
    expect(walk.step(0)).toBe(start);
    // 9 % above the anchor: a week later it is back within a few percent of it.
    for (let i = 0; i < 7 * 1_440; i++) walk.step(60);
    expect(percent(walk.price > 6_400_000n ? walk.price - 6_400_000n : 6_400_000n - walk.price, 6_400_000n)).toBeLessThan(8);
    const coarse = new ReferenceWalk({ anchor: 100_000n, start: 100_000n, volatilityPerDay: 0.03, tick: 25n, random: seeded(6) });
    for (let i = 0; i < 1_000; i++) expect(coarse.step(60) % 25n).toBe(0n);
  });
});
