import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractProduct } from "../contracts/contract-product";
import { seedContracts } from "../contracts/seed-contracts";
import { DurableCore } from "../journal/durable-core";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { backfillContractKlines } from "./contract-kline-backfill";

describe("contract k-line backfill", () => {
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
    });
    // The spot history the index follows: two minute candles of BTC/USDT, priced finer than the contracts' tick.
    await store.db
      .insertInto("spot_kline")
      .values([
        {
          symbol: "BTC/USDT",
          period: "1m",
          open_time: "60000",
          open: "50000.12",
          high: "50100.16",
          low: "49900",
          close: "50050.5",
          volume: "2.5005",
          turnover: "125075",
        },
        {
          symbol: "BTC/USDT",
          period: "1m",
          open_time: "120000",
          open: "50050.5",
          high: "50060",
          low: "50040",
          close: "50055",
          volume: "0.0004",
          turnover: "20.02",
        },
      ])
      .execute();
  });
  afterAll(() => store?.dispose());

  it("gives each contract its index's history as last and mark candles, in contracts, once", async () => {
    const filled = await backfillContractKlines(store.db, durable.core.contracts);
    expect(filled.sort()).toEqual(["BTC/USD", "BTC/USDT"]);
    const rows = (symbol: string) =>
      store.db
        .selectFrom("contract_kline")
        .select(["source", "open_time", "open", "high", "volume", "turnover"])
        .where("symbol", "=", symbol)
        .orderBy("source")
        .orderBy("open_time")
        .execute()
        .then((r) => r.map((k) => [k.source, String(k.open_time), Number(k.open), Number(k.high), Number(k.volume), Number(k.turnover)]));
    // Linear (0.001 BTC a contract, tick 0.1): 2.5005 BTC is 2,500 whole contracts; 0.0004 BTC is none.
    expect(await rows("BTC/USDT")).toEqual([
      ["last", "60000", 50000.1, 50100.2, 2500, 125075],
      ["last", "120000", 50050.5, 50060, 0, 20.02],
      ["mark", "60000", 50000.1, 50100.2, 0, 0],
      ["mark", "120000", 50050.5, 50060, 0, 0],
    ]);
    // Inverse (100 USD a contract): 125,075 USD is 1,250 contracts, worth 2.5005 BTC.
    expect((await rows("BTC/USD"))[0]).toEqual(["last", "60000", 50000.1, 50100.2, 1250, 2.5005]);
    // A contract whose index has no history (SOL) gets none; a second start adds nothing.
    expect(await rows("SOL/USDT")).toEqual([]);
    expect(await backfillContractKlines(store.db, durable.core.contracts)).toEqual([]);
  });
});
