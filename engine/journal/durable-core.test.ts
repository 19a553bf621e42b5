import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spotProduct } from "../spot/spot-product";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { DurableCore } from "./durable-core";
import type { Product } from "./product";

describe("the durable layer's products", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore("pglite");
  });
  afterAll(async () => {
    await store?.dispose();
  });
  const start = (products: Product[]) =>
    DurableCore.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      products,
    });

  it("refuses a command no plugged-in product owns, before the core applies it", async () => {
    const durable = await start([]);
    // Funds is always plugged in: its commands run.
    expect(await durable.funds.deposit("1", "USDT", "spot", "100", "dep-owned")).toBe(true);
    const before = durable.core.lastSeq;
    await expect(durable.execute({ type: "market.halt", symbol: "BTC/USDT", halted: true })).rejects.toThrow(/no product plugged in owns market.halt/);
    expect(durable.core.lastSeq).toBe(before);
    await durable.drain();
    const journal = await store.db.selectFrom("command_journal").select("command").execute();
    expect(journal.map((j) => JSON.parse(j.command).type)).toEqual(["ledger.deposit"]);
  });

  it("refuses two products that own one command", async () => {
    const twin: Product = { ...spotProduct, name: "twin" };
    await expect(start([spotProduct, twin])).rejects.toThrow(/twin and spot both own spot.place/);
  });
});
