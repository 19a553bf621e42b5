import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { SpotService } from "./spot-service";
import { testAct } from "../testing/operator-act";

describe.each(testStoreKinds())("spot service on %s", (kind) => {
  let store: TestStore;
  let service: SpotService;
  let n = 0;
  const start = () =>
    SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      newOrderId: () => `ord-${kind}-${++n}`,
    });

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    service = await start();
    await service.durable.funds.deposit("1", "USDT", "spot", "100000", "dep-1");
    await service.durable.funds.deposit("2", "BTC", "spot", "2", "dep-2");
  });
  afterAll(async () => {
    await service?.durable.drain();
    await store?.dispose();
  });

  it("answers a trade once it is journaled; the tables follow with the balances", async () => {
    const sell = await service.placeOrder("2", { symbol: "BTC/USDT", side: "sell", type: "limit", price: "60000", quantity: "0.5", tif: "GTC" }, "k-sell-1");
    expect(sell).toMatchObject({ code: "OK", status: "open", filled: "0" });
    const buy = await service.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "limit", price: "60000", quantity: "0.5", tif: "GTC" }, "k-buy-1");
    expect(buy).toMatchObject({ code: "OK", status: "filled", filled: "0.5", trades: 1 });
    // Both commands are in the journal before their answers; the tables are written behind them.
    const journal = await store.db.selectFrom("command_journal").select("command").orderBy("seq", "desc").limit(2).execute();
    expect(journal.map((j) => JSON.parse(j.command).type)).toEqual(["spot.place", "spot.place"]);
    expect(await service.durable.projectedFor("1")).toBe(true);
    const accounts = await store.db.selectFrom("ledger_account").select(["id", "posted", "held"]).where("owner", "in", ["1", "2"]).orderBy("id").execute();
    const posted = Object.fromEntries(accounts.map((a) => [a.id, Number(a.posted)]));
    expect(posted).toMatchObject({ "1/spot/USDT": 70000, "1/spot/BTC": 0.499, "2/spot/USDT": 29970, "2/spot/BTC": 1.5 });
    const orders = await store.db.selectFrom("spot_order").select(["order_id", "status", "filled"]).orderBy("seq").execute();
    expect(orders.map((o) => [o.status, Number(o.filled)])).toEqual([
      ["filled", 0.5],
      ["filled", 0.5],
    ]);
    expect((await store.db.selectFrom("spot_trade").selectAll().execute()).length).toBe(1);
  });

  it("answers a retried request with the same idempotency key once", async () => {
    const input = { symbol: "BTC/USDT", side: "buy" as const, type: "limit" as const, price: "50000", quantity: "0.1", tif: "GTC" as const };
    const [a, b] = await Promise.all([service.placeOrder("1", input, "k-retry"), service.placeOrder("1", input, "k-retry")]);
    const c = await service.placeOrder("1", input, "k-retry");
    expect(a).toEqual(b);
    expect(c).toEqual(a);
    await service.durable.drain();
    const count = await store.db
      .selectFrom("spot_order")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("price", "=", "50000")
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });

  it("refuses what a member cannot pay and wrong precision, placing nothing", async () => {
    expect(
      (await service.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "limit", price: "60000", quantity: "100", tif: "GTC" }, "k-poor")).code,
    ).toBe("RISK_INSUFFICIENT_AVAILABLE");
    expect(
      (await service.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "limit", price: "60000.001", quantity: "0.1", tif: "GTC" }, "k-tick")).code,
    ).toBe("ORDER_BAD_TICK");
    expect(
      (await service.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "limit", price: "60000", quantity: "0.0000001", tif: "GTC" }, "k-lot")).code,
    ).toBe("ORDER_BAD_LOT");
    expect((await service.placeOrder("1", { symbol: "NOPE/USDT", side: "buy", type: "limit", price: "1", quantity: "1", tif: "GTC" }, "k-sym")).code).toBe(
      "ORDER_BAD_COMMAND",
    );
  });

  it("rebuilds the same ledger and books after a restart", async () => {
    await service.placeOrder("2", { symbol: "BTC/USDT", side: "sell", type: "limit", price: "61000", quantity: "0.25", tif: "GTC" }, "k-rest");
    await service.durable.drain();
    const before = {
      hash: service.durable.ledger.stateHash(),
      depth: service.markets.get("BTC/USDT")!.book.depth(),
      market: service.markets.get("BTC/USDT")!.stateHash(),
    };
    const restarted = await start();
    expect(restarted.durable.ledger.stateHash()).toBe(before.hash);
    // Every resting order in the same queue place, the same stops, the same last price.
    expect(restarted.markets.get("BTC/USDT")!.stateHash()).toBe(before.market);
    expect(restarted.markets.get("BTC/USDT")!.book.depth()).toEqual(before.depth);
    expect(restarted.durable.ledger.checkInvariants()).toEqual([]);
    expect(restarted.markets.get("BTC/USDT")!.checkInvariants()).toEqual([]);
    service = restarted;
  });

  it("keeps working after a restart: new trades, repeated transfer keys and deposit references", async () => {
    await service.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "limit", price: "61000", quantity: "0.05", tif: "GTC" }, "k-after-restart");
    await service.durable.drain();
    // The engine will die before its tables are written: the next start writes them from the journal.
    await service.durable.projection.pause(true);
    expect(await service.durable.funds.transferBetween("1", "USDT", "spot", "funding", "10", "trans-key-1")).toBe("OK");
    // A retry before the tables have the transfer is known too (it is only in the journal yet).
    expect(await service.durable.funds.transferBetween("1", "USDT", "spot", "funding", "10", "trans-key-1")).toBe("OK");
    expect(await service.durable.funds.transferBetween("1", "USDT", "spot", "funding", "11", "trans-key-1")).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await store.db.selectFrom("ledger_transfer").select("id").where("id", "=", "trans-key-1").executeTakeFirst()).toBeUndefined();
    const again = await start();
    expect(again.durable.restoredFrom.replayed).toBeGreaterThan(0);
    expect(await store.db.selectFrom("ledger_transfer").select("id").where("id", "=", "trans-key-1").executeTakeFirst()).toBeDefined();
    expect(await again.durable.funds.transferBetween("1", "USDT", "spot", "funding", "10", "trans-key-1")).toBe("OK");
    expect(again.durable.funds.balances("1", "funding").find((b) => b.coin === "USDT")!.available).toBe("10");
    expect(await again.durable.funds.deposit("2", "BTC", "spot", "1", "dep-2")).toBe(false);
    // The restarted engine trades on with fresh transfer ids.
    const trade = await again.placeOrder(
      "1",
      { symbol: "BTC/USDT", side: "buy", type: "limit", price: "61000", quantity: "0.05", tif: "GTC" },
      "k-after-restart-2",
    );
    expect(trade).toMatchObject({ code: "OK", status: "filled" });
    await again.durable.drain();
    service = again;
  });

  it("lists a market whose new asset's name would end a dollar-quoted text early ($v)", async () => {
    const listed = await service.addMarket(
      {
        symbol: "DQ/USDT",
        base: "DQ",
        quote: "USDT",
        priceScale: 2,
        amountScale: 2,
        tickSize: "0.01",
        lotSize: "0.01",
        minQuantity: "0.01",
        makerFeeBps: 10,
        takerFeeBps: 10,
        newBase: { scale: 8, name: "Quote$v" },
      },
      testAct(),
    );
    expect(listed.code).toBe("OK");
    expect(await store.db.selectFrom("asset").select("name").where("code", "=", "DQ").executeTakeFirstOrThrow()).toEqual({ name: "Quote$v" });
  });

  it("cancels only the owner's order and releases its hold", async () => {
    const placed = await service.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "limit", price: "40000", quantity: "0.1", tif: "GTC" }, "k-cancel");
    expect(await service.cancelOrder("2", placed.orderId!)).toBe("ORDER_UNKNOWN");
    const heldBefore = service.durable.funds.balances("1", "spot").find((b) => b.coin === "USDT")!.frozen;
    expect(await service.cancelOrder("1", placed.orderId!)).toBe("OK");
    const heldAfter = service.durable.funds.balances("1", "spot").find((b) => b.coin === "USDT")!.frozen;
    expect(Number(heldBefore) - Number(heldAfter)).toBe(4000);
    await service.durable.drain();
    const row = await store.db.selectFrom("spot_order").select("status").where("order_id", "=", placed.orderId!).executeTakeFirstOrThrow();
    expect(row.status).toBe("cancelled");
    expect(await service.cancelOrder("1", placed.orderId!)).toBe("ORDER_UNKNOWN");
  });

  it("cancels an order whose placement is still being committed", async () => {
    const expectedId = `ord-${kind}-${n + 1}`;
    // Without a key the order reaches the book at once; its commit is still queued.
    const placing = service.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "limit", price: "30000", quantity: "0.01", tif: "GTC" }, null);
    const cancelling = service.cancelOrder("1", expectedId);
    expect(await cancelling).toBe("OK");
    expect((await placing).orderId).toBe(expectedId);
    await service.durable.drain();
    const row = await store.db.selectFrom("spot_order").select("status").where("order_id", "=", expectedId).executeTakeFirstOrThrow();
    expect(row.status).toBe("cancelled");
  });

  it("commits concurrent orders in shared transactions (group commit)", async () => {
    await service.durable.funds.deposit("3", "USDT", "spot", "1000000", "dep-3");
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        service.placeOrder("3", { symbol: "BTC/USDT", side: "buy", type: "limit", price: String(30000 + i), quantity: "0.01", tif: "GTC" }, `k-burst-${i}`),
      ),
    );
    expect(answers.every((a) => a.code === "OK")).toBe(true);
    const committer = (service.durable as unknown as { committer: { stats: { commits: number; changes: number } } }).committer;
    expect(committer.stats.changes).toBeGreaterThan(committer.stats.commits);
  });
});
