import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedStaking } from "../earn/stake-config";
import { stakeProduct } from "../earn/stake-product";
import { StakeService } from "../earn/stake-service";
import { DurableCore } from "../journal/durable-core";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { seedDemoMarkets } from "./demo-markets";
import { StakeBots } from "./stake-bots";

/** The simulator's stakers (decision 052): they stake within the products' rules and redeem, the ledger sound. */
describe("stake bots", () => {
  let store: TestStore;
  let durable: DurableCore;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
    await seedStaking(store.db);
    durable = await DurableCore.start({
      db: store.db,
      products: [stakeProduct],
      onFatal: (e) => {
        throw e;
      },
    });
  });
  afterAll(async () => {
    await durable?.drain();
    await store.dispose();
  });

  it("stake and redeem, every asset summing to zero", async () => {
    const bots = new StakeBots(new StakeService(durable), ["991", "992"]);
    let took = 0;
    let redeemed = 0;
    let before = 0;
    for (let i = 0; i < 30; i++) {
      await bots.step();
      const running = [...durable.core.staking.allStakes()].length;
      if (running > before) took++;
      if (running < before) redeemed++;
      before = running;
    }
    expect(took).toBeGreaterThan(3);
    expect(redeemed).toBeGreaterThan(1);
    for (const stake of durable.core.staking.allStakes()) expect(["991", "992"]).toContain(stake.owner);
    const sums = new Map<string, bigint>();
    for (const [key, posted] of durable.core.ledger.accounts()) {
      const asset = key.slice(key.lastIndexOf("/") + 1);
      sums.set(asset, (sums.get(asset) ?? 0n) + posted);
    }
    for (const [asset, sum] of sums) expect(sum, asset).toBe(0n);
    expect(durable.core.staking.checkInvariants()).toEqual([]);
  });
});
