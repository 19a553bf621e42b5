import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromMinor } from "../../protocol/money";
import { contractProduct } from "../contracts/contract-product";
import { ContractService } from "../contracts/contract-service";
import { seedContracts } from "../contracts/seed-contracts";
import { DurableCore } from "../journal/durable-core";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { startContractSimulator } from "./contract-simulator";

/**
 * The contract simulator (issue 30): its makers quote both sides of each contract with a mark, its
 * taker trades the touch and guards what it holds with a take profit and a stop loss (decision
 * 048), which fire when the mark moves far enough.
 */
describe("the contract simulator", () => {
  let store: TestStore;
  let durable: DurableCore;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedContracts(store.db);
    durable = await DurableCore.start({
      db: store.db,
      products: [contractProduct],
      onFatal: (e) => {
        throw e;
      },
      warn: () => undefined,
    });
  });
  afterAll(() => store.dispose());

  it("quotes, trades, guards the taker's position and fires its stop when the mark moves", async () => {
    const contracts = new ContractService(durable);
    let at = Date.UTC(2026, 10, 29, 8, 0, 0);
    const tick = (btc: number) => contracts.tick([["BTC/USDT", btc.toFixed(1)]], (at += 1_000));
    await tick(50_000);
    const [longMaker, shortMaker, taker] = ["811", "812", "813"];
    const sim = await startContractSimulator({ contracts, bots: [longMaker, shortMaker, taker], seed: 7, timer: false, now: () => at });
    const btc = contracts.contracts.get("BTC/USDT")!;
    for (let i = 0; i < 120 && !btc.market.position(taker); i++) {
      await sim.tick(5);
      await tick(50_000);
    }
    const { bids, asks } = btc.market.depth(5);
    expect(bids.length).toBe(5);
    expect(asks.length).toBe(5);
    expect(btc.market.position(taker)).toBeDefined();
    await sim.tick(1);
    const guard = btc.market.positionStopsOf(taker)!;
    expect(guard).toBeDefined();
    const mark = Number(fromMinor(btc.mark!, btc.config.spec.priceScale));
    expect(Number(fromMinor(guard.profitPrice!, 1))).toBeCloseTo(btc.market.position(taker)!.side === "long" ? mark * 1.015 : mark * 0.985, -1);
    // The index moves 3 % the way of the stop loss: the mark follows and the guard fires.
    const away = btc.market.position(taker)!.side === "long" ? 0.97 : 1.03;
    for (let i = 0; i < 60 && btc.market.waitingStop(guard.id); i++) {
      await tick(50_000 * away);
      await sim.tick(1);
    }
    expect(btc.market.waitingStop(guard.id)).toBeUndefined();
    await durable.drain();
    const row = await store.db.selectFrom("contract_stop").select(["status", "fired_price"]).where("stop_id", "=", guard.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("triggered");
    await sim.stop();
    expect(durable.core.checkContractInvariants()).toEqual([]);
  });
});
