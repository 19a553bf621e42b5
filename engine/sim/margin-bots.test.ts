import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DurableCore } from "../journal/durable-core";
import { seedMargin } from "../margin/margin-config";
import { marginProduct } from "../margin/margin-product";
import { MarginService } from "../margin/margin-service";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { seedDemoMarkets } from "./demo-markets";
import { MarginBots } from "./margin-bots";

/** The simulator's margin traders (decision 050): in on borrowed USDT, out with the debt repaid, through the books, the ledger sound. */
describe("margin bots", () => {
  let store: TestStore;
  let durable: DurableCore;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
    await seedMargin(store.db);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, marginProduct],
      onFatal: (e) => {
        throw e;
      },
    });
  });
  afterAll(async () => {
    await durable?.drain();
    await store.dispose();
  });

  it("open a position on borrowed USDT and close it, repaying what they owe", async () => {
    // A maker quotes both sides of BTC/USDT around 60 000.
    await durable.funds.deposit("7001", "BTC", "spot", "5", "mb-btc");
    await durable.funds.deposit("7001", "USDT", "spot", "1000000", "mb-usdt");
    const quote = (side: "buy" | "sell", price: string, orderId: string) =>
      durable.execute({ type: "spot.place", memberId: "7001", orderId, symbol: "BTC/USDT", side, orderType: "limit", tif: "GTC", price, quantity: "1" });
    await quote("sell", "60000", "ask-1");
    await durable.funds.deposit("7002", "USDT", "spot", "100", "mb-taker");
    await durable.execute({
      type: "spot.place",
      memberId: "7002",
      orderId: "first",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "IOC",
      price: "60000",
      quantity: "0.001",
    });
    await quote("buy", "59900", "bid-1");
    const spot = new SpotService(durable);
    const bots = new MarginBots(new MarginService(durable), spot, ["991"]);
    await bots.step();
    expect(durable.core.margin.loan("991", "all", "USDT")?.principal).toBe(500_00000000n);
    expect(durable.core.ledger.posted({ owner: "991", kind: "margin", asset: "BTC" }) > 0n).toBe(true);
    await bots.step();
    expect(durable.core.margin.loan("991", "all", "USDT")).toBeUndefined();
    expect(durable.core.ledger.posted({ owner: "991", kind: "margin", asset: "USDT" })).toBe(0n);
    const sums = new Map<string, bigint>();
    for (const [key, posted] of durable.core.ledger.accounts()) {
      const asset = key.slice(key.lastIndexOf("/") + 1);
      sums.set(asset, (sums.get(asset) ?? 0n) + posted);
    }
    for (const [asset, sum] of sums) expect(sum, asset).toBe(0n);
    expect(durable.core.margin.checkInvariants()).toEqual([]);
  });
});
