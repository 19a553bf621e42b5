import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toMinor } from "../../protocol/money";
import { PERIODS } from "../core/market/candles";
import { MarketData } from "../market/market-data";
import { SpotService } from "../spot/spot-service";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { DEMO_MARKETS, seedDemoMarkets } from "./demo-markets";
import { backfillKlines } from "./kline-backfill";
import { startSimulator, type Simulator } from "./market-simulator";
import { bps, MarketWatch, type MarketFigures } from "./market-watch";

/**
 * The simulated liquidity trades for real through the spot service, on a simulated clock with a
 * seeded walk: it joins the drawn history, keeps a book of at least 20 levels a side with a tight
 * spread, prints only at the touch, moves like a market, and leaves the engine sound.
 */
describe("simulated liquidity", () => {
  let store: TestStore;
  let clock = Date.parse("2026-11-22T08:00:00Z");
  const now = () => clock;
  let spot: SpotService;
  let marketData: MarketData;
  let watch: MarketWatch;
  let sim: Simulator;
  const firstPrints = new Map<string, bigint>();

  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
    spot = await SpotService.start({
      db: store.db,
      now,
      onFatal: (e) => {
        throw e;
      },
    });
    await backfillKlines(store.db, spot, clock);
    marketData = await MarketData.start({ db: store.db, spot, now });
    watch = new MarketWatch(spot);
    spot.durable.onEvents(({ events }) => {
      for (const e of events) if (e.type === "trade" && !firstPrints.has(e.symbol)) firstPrints.set(e.symbol, e.price);
    });
    sim = await startSimulator({ db: store.db, spot, seed: 7, timer: false, now });
  });
  afterAll(async () => {
    marketData?.stop();
    await store?.dispose();
  });

  /** Ticks of `seconds` simulated seconds, the clock moving with them; books sampled after each. */
  async function run(ticks: number, seconds: number) {
    for (let i = 0; i < ticks; i++) {
      clock += seconds * 1_000;
      await sim.tick(seconds);
      watch.sampleBooks();
    }
    await spot.durable.drain();
  }

  /** The book, spread and print bounds every run must keep. */
  function expectSoundMarkets(figures: MarketFigures[], maxGapBps: number) {
    for (const f of figures) {
      expect(f.prints, f.symbol).toBeGreaterThan(10);
      expect(f.printsOutsideSpread, f.symbol).toBe(0);
      expect(f.brokenSamples, f.symbol).toBe(0);
      expect(Math.min(f.minLevels.bids, f.minLevels.asks), f.symbol).toBeGreaterThanOrEqual(20);
      expect(f.spreadBps.max, f.symbol).toBeLessThanOrEqual(10);
      expect(f.spreadBps.median, f.symbol).toBeGreaterThan(0);
      expect(f.maxPrintGapBps, f.symbol).toBeLessThanOrEqual(maxGapBps);
    }
  }

  it("starts the live walk where the drawn history ends, in every period, and prints next to it", async () => {
    for (const m of DEMO_MARKETS) {
      const start = sim.reference(m.symbol)!;
      expect(start, m.symbol).toBe(toMinor(m.start, m.priceScale));
      const rows = await store.db.selectFrom("spot_kline").select(["period", "close"]).where("symbol", "=", m.symbol).orderBy("open_time", "desc").execute();
      for (const period of PERIODS) {
        const last = rows.find((r) => r.period === period)!;
        expect(toMinor(String(last.close), m.priceScale, "down"), `${m.symbol} ${period}`).toBe(start);
      }
    }
    // Two simulated minutes at the live pace (a tick a second).
    await run(120, 1);
    for (const m of DEMO_MARKETS) {
      const start = toMinor(m.start, m.priceScale);
      const first = firstPrints.get(m.symbol)!;
      // The first print is a spread away from the history's last close, not a cliff.
      expect(bps(first > start ? first - start : start - first, start), m.symbol).toBeLessThanOrEqual(6);
      // The live 15 m candle carries on from the drawn one: its close stays close to the history's.
      const [candle] = await marketData.klines(m.symbol, "15m", clock, 1);
      const close = toMinor(candle!.c, m.priceScale);
      expect(bps(close > start ? close - start : start - close, start), m.symbol).toBeLessThan(100);
    }
    expectSoundMarkets(watch.figures(), 15);
  });

  it("keeps 20 levels a side, a tight spread and prints at the touch, moving like a market over hours", async () => {
    // Three simulated hours at a tick a minute (each tick moves the ladder ~60 times as far).
    const fresh = new MarketWatch(spot);
    for (let i = 0; i < 180; i++) {
      clock += 60_000;
      await sim.tick(60);
      fresh.sampleBooks();
    }
    await spot.durable.drain();
    const figures = fresh.figures();
    expectSoundMarkets(figures, 60);
    for (const f of figures) {
      const full = f.hourlyRangePct.slice(1, -1); // whole hours only
      expect(full.length, f.symbol).toBeGreaterThanOrEqual(2);
      for (const range of full) {
        expect(range, f.symbol).toBeGreaterThan(0.05);
        expect(range, f.symbol).toBeLessThan(2.5);
      }
      expect(f.rangePct, f.symbol).toBeLessThan(5);
    }
    for (const market of spot.markets.values()) expect(market.checkInvariants()).toEqual([]);
    expect(spot.durable.ledger.checkInvariants()).toEqual([]);
  });

  it("moves a market's reference at once (the operators' test hook): the book quotes around it and a trade prints there", async () => {
    const m = DEMO_MARKETS[0]!;
    const market = spot.markets.get(m.symbol)!;
    const before = sim.reference(m.symbol)!;
    const target = (before * 97n) / 100n;
    const moved = (await sim.moveReference(m.symbol, target))!;
    expect(moved <= target && moved > target - market.config.tickSize).toBe(true);
    await spot.durable.drain();
    // Within 0.2 % of the new reference: the last trade, and the best bid and ask.
    const near = (price: bigint | undefined) => price !== undefined && (price > moved ? price - moved : moved - price) * 1000n <= moved * 2n;
    expect(near(market.lastPrice), `last ${market.lastPrice} vs ${moved}`).toBe(true);
    const { bids, asks } = market.book.depth(1);
    expect(near(bids[0]![0]) && near(asks[0]![0])).toBe(true);
    expect(await sim.moveReference("NOPE/USDT", 1n)).toBeUndefined();
    await sim.moveReference(m.symbol, before);
    await spot.durable.drain();
    expect(market.checkInvariants()).toEqual([]);
  });

  it("restarts where it stopped: the engine restores what it left, and the walk resumes at the last close", async () => {
    await sim.stop();
    await spot.durable.drain();
    const again = await SpotService.start({
      db: store.db,
      now,
      onFatal: (e) => {
        throw e;
      },
    });
    expect(again.durable.ledger.stateHash()).toBe(spot.durable.ledger.stateHash());
    const resumed = await startSimulator({ db: store.db, spot: again, seed: 8, timer: false, now });
    for (const m of DEMO_MARKETS) {
      const [candle] = await marketData.klines(m.symbol, "1m", clock, 1);
      expect(resumed.reference(m.symbol), m.symbol).toBe(toMinor(candle!.c, m.priceScale));
    }
    // Its old quotes were cancelled and a fresh ladder laid.
    for (const market of again.markets.values()) {
      const { bids, asks } = market.book.depth(100);
      expect(Math.min(bids.length, asks.length), market.config.symbol).toBeGreaterThanOrEqual(20);
      expect(market.checkInvariants()).toEqual([]);
    }
    await resumed.stop();
    await again.durable.drain();
  });
});
