import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { SpotService, type SpotServiceOptions } from "./spot-service";

/**
 * Idempotency keys answered from memory (decision 017, "the steps after" 2): a key rides in its
 * command's journal row, its table row is written behind the answer, and retries act once
 * whether memory, the journal or the table knows the key.
 */
describe.each(testStoreKinds())("idempotency keys in the journal on %s", (kind) => {
  let store: TestStore;
  let n = 0;
  let clock = Date.parse("2026-11-25T00:00:00Z");
  const services: SpotService[] = [];
  const start = async (options: Partial<SpotServiceOptions> = {}) => {
    const service = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      newOrderId: () => `kept-${kind}-${++n}`,
      now: () => clock,
      ...options,
    });
    services.push(service);
    return service;
  };
  const buy = (price: string) => ({ symbol: "BTC/USDT", side: "buy" as const, type: "limit" as const, price, quantity: "0.01", tif: "GTC" as const });
  const ordersAt = async (price: string) =>
    (
      await store.db
        .selectFrom("spot_order")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("price", "=", price)
        .executeTakeFirstOrThrow()
    ).n;
  const keyRow = (key: string) => store.db.selectFrom("idempotency_key").select(["response", "fingerprint"]).where("key", "=", key).executeTakeFirst();

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    const service = await start();
    await service.durable.funds.deposit("7", "USDT", "spot", "100000", "kept-dep-7");
    await service.durable.drain();
  });
  afterAll(async () => {
    for (const service of services) await service.durable.drain().catch(() => {});
    await store?.dispose();
  });

  it("keeps an accepted order's key in its journal row, writes its table row behind, and answers a retry from memory meanwhile", async () => {
    const service = await start();
    await service.durable.keptAnswersLoaded();
    await service.durable.projection.pause(true);
    const first = await service.placeOrder("7", buy("100"), "kept-a");
    expect(first.code).toBe("OK");
    const row = await store.db.selectFrom("command_journal").select(["kept"]).orderBy("seq", "desc").limit(1).executeTakeFirstOrThrow();
    expect(JSON.parse(row.kept!)).toMatchObject({ memberId: "7", key: "kept-a", response: JSON.stringify(first) });
    // Not in the table yet; a retry is answered all the same, and nothing is placed twice.
    expect(await keyRow("kept-a")).toBeUndefined();
    expect(await service.placeOrder("7", buy("100"), "kept-a")).toEqual(first);
    expect((await service.placeOrder("7", buy("101"), "kept-a")).code).toBe("IDEMPOTENCY_KEY_REUSED");
    await service.durable.projection.pause(false);
    await service.durable.drain();
    expect((await keyRow("kept-a"))?.response).toBe(JSON.stringify(first));
    expect(await ordersAt("100")).toBe(1);
  });

  it("knows a key again after a crash before its table row was written: from the journal's tail", async () => {
    const service = await start();
    await service.durable.projection.pause(true);
    const first = await service.placeOrder("7", buy("102"), "kept-crash");
    expect(await keyRow("kept-crash")).toBeUndefined();
    // The engine dies here (its tables never written); the next start replays the journal.
    const again = await start();
    expect(again.durable.restoredFrom.replayed).toBeGreaterThan(0);
    await again.durable.keptAnswersLoaded();
    expect(await again.placeOrder("7", buy("102"), "kept-crash")).toEqual(first);
    // Memory knew it (from the journal's tail or the table the replay wrote), without a look-up.
    expect(again.durable.keyTableLookups).toBe(0);
    await again.durable.drain();
    expect((await keyRow("kept-crash"))?.response).toBe(JSON.stringify(first));
    expect(await ordersAt("102")).toBe(1);
  });

  it("knows a key after a restart from a snapshot: from the table, before and after memory has loaded it", async () => {
    const service = await start();
    const first = await service.placeOrder("7", buy("103"), "kept-snap");
    await service.durable.writeSnapshot({ force: true });
    const again = await start();
    expect(again.durable.restoredFrom.source).toBe("snapshot");
    // Asked at once: memory has not loaded the table yet, so the table is asked.
    expect(await again.placeOrder("7", buy("103"), "kept-snap")).toEqual(first);
    expect(again.durable.keyTableLookups).toBe(1);
    await again.durable.keptAnswersLoaded();
    // Once loaded, memory answers it, and vouches for a new key without asking.
    expect(await again.placeOrder("7", buy("103"), "kept-snap")).toEqual(first);
    expect((await again.placeOrder("7", buy("105"), "kept-snap-new")).code).toBe("OK");
    expect(again.durable.keyTableLookups).toBe(1);
    await again.durable.drain();
    expect(await ordersAt("103")).toBe(1);
  });

  it("keeps a refusal's key with the journal, and answers its retry the same", async () => {
    const service = await start();
    await service.durable.keptAnswersLoaded();
    const poor = { ...buy("104"), quantity: "100000" };
    const first = await service.placeOrder("7", poor, "kept-refused");
    expect(first.code).toBe("RISK_INSUFFICIENT_AVAILABLE");
    expect((await keyRow("kept-refused"))?.response).toBe(JSON.stringify(first));
    expect(await service.placeOrder("7", poor, "kept-refused")).toEqual(first);
  });

  it("past its cap, memory lets the oldest keys go once written, and their retries are asked of the table", async () => {
    const service = await start({ keptAnswers: { cap: 2 } });
    await service.durable.keptAnswersLoaded();
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await service.placeOrder("7", buy(String(110 + i)), `kept-cap-${i}`));
      await service.durable.drain();
    }
    for (let i = 0; i < 4; i++) expect(await service.placeOrder("7", buy(String(110 + i)), `kept-cap-${i}`)).toEqual(answers[i]);
    await service.durable.drain();
    for (let i = 0; i < 4; i++) expect(await ordersAt(String(110 + i))).toBe(1);
  });

  it("a key older than its window acts again, and its row is replaced", async () => {
    const service = await start({ keptAnswers: { windowMs: 60_000 } });
    await service.durable.keptAnswersLoaded();
    const first = await service.placeOrder("7", buy("120"), "kept-late");
    await service.durable.drain();
    clock += 61_000;
    const late = await service.placeOrder("7", buy("120"), "kept-late");
    expect(late.code).toBe("OK");
    expect(late.orderId).not.toBe(first.orderId);
    // The late request's own retry gets its answer.
    expect(await service.placeOrder("7", buy("120"), "kept-late")).toEqual(late);
    await service.durable.drain();
    expect(await ordersAt("120")).toBe(2);
    expect((await keyRow("kept-late"))?.response).toBe(JSON.stringify(late));
    // Rows past the window go with the next snapshot's pruning.
    clock += 61_000;
    await service.durable.writeSnapshot({ force: true });
    expect(await keyRow("kept-late")).toBeUndefined();
  });

  it("a key and its reuse after the window, both in a crashed engine's journal tail, replay in one batch", async () => {
    const service = await start({ keptAnswers: { windowMs: 60_000 } });
    await service.durable.keptAnswersLoaded();
    await service.durable.projection.pause(true);
    await service.placeOrder("7", buy("130"), "kept-twice");
    clock += 61_000;
    const late = await service.placeOrder("7", buy("130"), "kept-twice");
    // The engine dies with neither written to the tables: the start replays both in one batch.
    const again = await start({ keptAnswers: { windowMs: 60_000 } });
    await again.durable.drain();
    expect((await keyRow("kept-twice"))?.response).toBe(JSON.stringify(late));
    expect(await again.placeOrder("7", buy("130"), "kept-twice")).toEqual(late);
    expect(await ordersAt("130")).toBe(2);
  });
});
