import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DurableCore } from "../journal/durable-core";
import { seedPledge } from "../loans/pledge-config";
import { pledgeProduct } from "../loans/pledge-product";
import { PledgeService } from "../loans/pledge-service";
import { seedDemoMarkets } from "./demo-markets";
import { spotProduct } from "../spot/spot-product";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { LoanBots } from "./loan-bots";

/** The simulator's borrowers (decision 051): they take loans within the products' rules and repay them in full, the ledger sound. */
describe("loan bots", () => {
  let store: TestStore;
  let durable: DurableCore;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
    await seedPledge(store.db);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, pledgeProduct],
      onFatal: (e) => {
        throw e;
      },
    });
    // Every collateral market trades once: its price.
    for (const [symbol, price, qty] of [
      ["BTC/USDT", "60000", "0.001"],
      ["ETH/USDT", "3000", "0.01"],
      ["SOL/USDT", "150", "1"],
    ] as const) {
      const [base] = symbol.split("/") as [string];
      await durable.funds.deposit("7001", base, "spot", qty, `lb-${base}`);
      await durable.funds.deposit("7002", "USDT", "spot", "100000", `lb-usdt-${base}`);
      for (const side of ["sell", "buy"] as const)
        await durable.execute({
          type: "spot.place",
          memberId: side === "sell" ? "7001" : "7002",
          orderId: `lb-${base}-${side}`,
          symbol,
          side,
          orderType: "limit",
          tif: side === "sell" ? "GTC" : "IOC",
          price,
          quantity: qty,
        });
    }
  });
  afterAll(async () => {
    await durable?.drain();
    await store.dispose();
  });

  it("take loans and repay them in full, every asset summing to zero", async () => {
    const bots = new LoanBots(new PledgeService(durable), ["991", "992"]);
    let took = 0;
    let repaid = 0;
    let before = 0;
    for (let i = 0; i < 24; i++) {
      await bots.step();
      const open = [...durable.core.pledges.allLoans()].length;
      if (open > before) took++;
      if (open < before) repaid++;
      before = open;
    }
    expect(took).toBeGreaterThan(3);
    expect(repaid).toBeGreaterThan(1);
    for (const loan of durable.core.pledges.allLoans()) expect(["991", "992"]).toContain(loan.owner);
    const sums = new Map<string, bigint>();
    for (const [key, posted] of durable.core.ledger.accounts()) {
      const asset = key.slice(key.lastIndexOf("/") + 1);
      sums.set(asset, (sums.get(asset) ?? 0n) + posted);
    }
    for (const [asset, sum] of sums) expect(sum, asset).toBe(0n);
    expect(durable.core.pledges.checkInvariants()).toEqual([]);
  });
});
