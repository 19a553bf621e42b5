import { describe, expect, it } from "vitest";
import { toMinor } from "../../../protocol/money";
import { indexPrice, MarkTracker, nextFundingTime, samplePremium, DEFAULT_MARK_RULES } from "./contract-prices";

const price = (text: string) => toMinor(text, 1);
const rate = (percent: string) => toMinor(percent, 6);
const HOUR = 3_600_000;
const T0 = Date.parse("2026-11-29T05:00:00Z");

describe("the index price", () => {
  it("is the weighted mean of the sources that traded recently, rounded to the nearest unit", () => {
    const sources = [
      { price: price("50000"), at: T0 - 1_000, weight: 3n },
      { price: price("50010"), at: T0 - 2_000, weight: 1n },
    ];
    // (3 × 500000 + 500100) ÷ 4 = 500025
    expect(indexPrice(sources, T0, 10_000)).toBe(price("50002.5"));
  });

  it("leaves out a stale source, and is none when every source is stale", () => {
    const sources = [
      { price: price("50000"), at: T0 - 1_000, weight: 1n },
      { price: price("99999"), at: T0 - 60_000, weight: 5n },
    ];
    expect(indexPrice(sources, T0, 10_000)).toBe(price("50000"));
    expect(indexPrice(sources, T0 + 20_000, 10_000)).toBeNull();
    expect(indexPrice([], T0, 10_000)).toBeNull();
  });
});

describe("the mark and funding", () => {
  it("pays funding at 00:00, 08:00 and 16:00 UTC", () => {
    expect(new Date(nextFundingTime(T0, 8 * HOUR)).toISOString()).toBe("2026-11-29T08:00:00.000Z");
    expect(new Date(nextFundingTime(Date.parse("2026-11-29T08:00:00Z"), 8 * HOUR)).toISOString()).toBe("2026-11-29T16:00:00.000Z");
    expect(new Date(nextFundingTime(Date.parse("2026-11-29T23:59:59Z"), 8 * HOUR)).toISOString()).toBe("2026-11-30T00:00:00.000Z");
  });

  it("reads the premium from the impact prices: over the index, under it, or inside the spread", () => {
    expect(samplePremium(price("50000"), price("50050"), price("50060"))).toBe(rate("0.1"));
    expect(samplePremium(price("50000"), price("49940"), price("49950"))).toBe(-rate("0.1"));
    expect(samplePremium(price("50000"), price("49990"), price("50010"))).toBe(0n);
    expect(samplePremium(price("50000"), null, price("50010"))).toBe(0n);
  });

  it("smooths the basis towards the book and holds the mark within 0.5 % of the index", () => {
    const tracker = new MarkTracker(T0);
    let mark = 0n;
    // The book stands 100.0 over the index: the mark moves up towards it, not at once.
    const first = tracker.sample(price("50000"), price("50095"), price("50105"));
    expect(first > price("50000") && first < price("50100")).toBe(true);
    for (let i = 0; i < 200; i++) mark = tracker.sample(price("50000"), price("50095"), price("50105"));
    expect(mark >= price("50099") && mark <= price("50100")).toBe(true);
    // A book 2,000.0 over (4 %): the mark stops at 0.5 % of the index.
    for (let i = 0; i < 200; i++) mark = tracker.sample(price("50000"), price("51995"), price("52005"));
    expect(mark).toBe(price("50250"));
  });

  it("pays the interval's average premium once at the funding time, then starts the next interval", () => {
    const tracker = new MarkTracker(T0);
    for (let i = 0; i < 10; i++) tracker.sample(price("50000"), price("50100"), price("50110")); // 0.2 %
    expect(tracker.predictedRate()).toBe(rate("0.15"));
    expect(tracker.fundingDue(T0 + HOUR)).toBeNull();
    expect(tracker.fundingDue(Date.parse("2026-11-29T08:00:00Z"))).toEqual({ rate: rate("0.15"), at: Date.parse("2026-11-29T08:00:00Z") });
    expect(tracker.fundingDue(Date.parse("2026-11-29T08:00:01Z"))).toBeNull();
    // No samples in the new interval: the interest rate.
    expect(tracker.predictedRate()).toBe(rate("0.01"));
    // A stop over several funding times pays once when it comes back.
    expect(tracker.fundingDue(Date.parse("2026-11-30T09:00:00Z"))).toMatchObject({ at: Date.parse("2026-11-29T16:00:00Z") });
    expect(tracker.fundingAt).toBe(Date.parse("2026-11-30T16:00:00Z"));
  });

  it("restores from its snapshot to the same marks and rates", () => {
    const tracker = new MarkTracker(T0);
    for (let i = 0; i < 7; i++) tracker.sample(price("50000"), price("50030"), price("50040"));
    const copy = new MarkTracker(0, DEFAULT_MARK_RULES);
    copy.restore(JSON.parse(JSON.stringify(tracker.snapshot())));
    expect(copy.markOf(price("50000"))).toBe(tracker.markOf(price("50000")));
    expect(copy.predictedRate()).toBe(tracker.predictedRate());
    expect(copy.fundingAt).toBe(tracker.fundingAt);
    expect(copy.sample(price("50010"), price("50030"), price("50040"))).toBe(tracker.sample(price("50010"), price("50030"), price("50040")));
  });
});
