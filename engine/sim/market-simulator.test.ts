import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpotService } from "../spot/spot-service";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { seedDemoMarkets } from "./demo-markets";
import { startSimulator } from "./market-simulator";

/** The simulated liquidity trades for real through the spot service and keeps the books sound. */
describe("simulated liquidity", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
  });
  afterAll(() => store?.dispose());

  it("quotes both sides and trades on all six demo markets, keeping every invariant", async () => {
    const spot = await SpotService.start({ db: store.db, onFatal: (e) => { throw e; } });
    const sim = await startSimulator({ db: store.db, spot, seed: 7, intervalMs: 60_000 });
    for (let i = 0; i < 8; i++) await sim.tick();
    await sim.stop();
    await spot.drain();
    expect([...spot.markets.keys()]).toEqual(["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT", "DOGE/USDT", "TRX/USDT"]);
    for (const market of spot.markets.values()) {
      expect(market.checkInvariants()).toEqual([]);
      const depth = market.book.depth();
      expect(depth.bids.length, market.config.symbol).toBeGreaterThan(0);
      expect(depth.asks.length, market.config.symbol).toBeGreaterThan(0);
    }
    expect(spot.ledger.checkInvariants()).toEqual([]);
    const trades = await store.db.selectFrom("spot_trade").select(["symbol"]).execute();
    expect(new Set(trades.map((t) => t.symbol)).size).toBe(6);
    // A restart restores exactly what the simulator left.
    const again = await SpotService.start({ db: store.db, onFatal: (e) => { throw e; } });
    expect(again.ledger.stateHash()).toBe(spot.ledger.stateHash());
  });
});
