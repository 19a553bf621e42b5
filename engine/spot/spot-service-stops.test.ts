import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { SpotService, type PlaceOrderInput } from "./spot-service";

/** Stop orders through the durable service: waiting rows, a restart, the trigger and what it wrote. */
describe.each(testStoreKinds())("spot service stop orders on %s", (kind) => {
  let store: TestStore;
  let service: SpotService;
  let n = 0;
  const start = () =>
    SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      newOrderId: () => `stop-${kind}-${++n}`,
    });
  const limit = (side: "buy" | "sell", price: string, quantity: string): PlaceOrderInput => ({
    symbol: "BTC/USDT",
    side,
    type: "limit",
    price,
    quantity,
    tif: "GTC",
  });
  // The tables are written behind the answers: read them once they include every command so far.
  const row = async (orderId: string) => {
    await service.durable.drain();
    return store.db.selectFrom("spot_order").selectAll().where("order_id", "=", orderId).executeTakeFirstOrThrow();
  };
  const frozen = (member: string, coin: string) => service.durable.funds.balances(member, "spot").find((b) => b.coin === coin)!.frozen;
  const sound = (s: SpotService) => {
    expect(s.durable.ledger.checkInvariants()).toEqual([]);
    for (const market of s.markets.values()) expect(market.checkInvariants()).toEqual([]);
  };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    service = await start();
    for (const m of ["1", "2", "3"]) {
      await service.durable.funds.deposit(m, "USDT", "spot", "100000", `dep-${m}-usdt`);
      await service.durable.funds.deposit(m, "BTC", "spot", "2", `dep-${m}-btc`);
    }
    // The last price: 60,000.
    await service.placeOrder("2", limit("sell", "60000", "0.01"), null);
    expect(await service.placeOrder("1", limit("buy", "60000", "0.01"), null)).toMatchObject({ status: "filled" });
  });
  afterAll(async () => {
    await service?.durable.drain();
    await store?.dispose();
  });

  it("stores a stop as waiting with its funds held, and refuses one that would fire at once", async () => {
    const stopLoss = (price: string, quantity: string): PlaceOrderInput => ({ ...limit("sell", price, quantity), stopLossPrice: "59000" });
    const a = await service.placeOrder("3", stopLoss("58500", "0.1"), "stop-a");
    expect(a).toEqual({ code: "OK", orderId: a.orderId, status: "waiting", filled: "0", trades: 0, remaining: "0.1" });
    expect(await service.placeOrder("3", stopLoss("58500", "0.1"), "stop-a")).toEqual(a); // a retry
    const b = await service.placeOrder("3", stopLoss("61000", "0.01"), "stop-b");
    const c = await service.placeOrder("3", { symbol: "BTC/USDT", side: "buy", type: "market", money: "500", tif: "IOC", stopLossPrice: "62000" }, "stop-c");
    Object.assign(ids, { a: a.orderId, b: b.orderId, c: c.orderId });
    expect(frozen("3", "BTC")).toBe("0.11");
    expect(frozen("3", "USDT")).toBe("500");
    expect(await row(a.orderId!)).toMatchObject({
      status: "waiting",
      type: "limit",
      price: null,
      stop_loss_price: expect.stringMatching(/^59000(\.0+)?$/),
      stop_profit_price: null,
      triggered_at: null,
    });
    expect(Number((await row(a.orderId!)).trigger_price)).toBe(58500);
    expect((await row(c.orderId!)).trigger_price).toBeNull();
    await service.durable.drain();
    const count = await store.db
      .selectFrom("spot_order")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("status", "=", "waiting")
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(3);

    expect((await service.placeOrder("3", { ...limit("sell", "58500", "0.1"), stopLossPrice: "60000" }, "stop-bad-1")).code).toBe("STOP_LOSS_WOULD_TRIGGER");
    expect((await service.placeOrder("3", { ...limit("sell", "58500", "0.1"), stopProfitPrice: "60000.001" }, "stop-bad-2")).code).toBe("ORDER_BAD_TICK");
    expect(frozen("3", "BTC")).toBe("0.11");
  });

  it("keeps waiting stops and the last price across a restart", async () => {
    // While the stops wait: a bid the fired stop will sell into, and a sell at 61,000 ahead of stop b.
    await service.placeOrder("1", limit("buy", "58600", "0.04"), "bid-58600");
    ids.ask = (await service.placeOrder("2", limit("sell", "61000", "0.01"), "ask-61000")).orderId!;
    await service.durable.drain();
    const hash = service.durable.ledger.stateHash();
    const marketHash = service.markets.get("BTC/USDT")!.stateHash();
    service = await start();
    const market = service.markets.get("BTC/USDT")!;
    expect(service.durable.ledger.stateHash()).toBe(hash);
    expect(market.stateHash()).toBe(marketHash);
    expect(market.lastPrice).toBe(6_000_000n);
    expect(market.waitingCount).toBe(3);
    expect(market.waitingOrder(ids.a!)).toMatchObject({ side: "sell", type: "limit", price: 5_850_000n, quantity: 100_000n, stopLossPrice: 5_900_000n });
    sound(service);
  });

  it("cancels a restored waiting stop, releasing its hold", async () => {
    expect(await service.cancelOrder("1", ids.c!)).toBe("ORDER_UNKNOWN");
    expect(await service.cancelOrder("3", ids.c!)).toBe("OK");
    expect(frozen("3", "USDT")).toBe("0");
    expect((await row(ids.c!)).status).toBe("cancelled");
    expect(await service.cancelOrder("3", ids.c!)).toBe("ORDER_UNKNOWN");
  });

  it("fires the restored stops on the next trade that reaches them, and writes their fills", async () => {
    await service.placeOrder("2", limit("sell", "59000", "0.01"), "ask-59000");
    const buy = await service.placeOrder("1", limit("buy", "59000", "0.01"), "buy-59000");
    // The answer counts the member's own trade only; stop a sold 0.04 into the 58,600 bid in the same command.
    expect(buy).toMatchObject({ status: "filled", filled: "0.01", trades: 1 });
    const a = await row(ids.a!);
    expect(a).toMatchObject({ status: "open", triggered_by: "loss" });
    expect(Number(a.price)).toBe(58500);
    expect(Number(a.filled)).toBe(0.04);
    expect(a.triggered_at).not.toBeNull();
    const buyRow = await row(buy.orderId!);
    expect(BigInt(a.triggered_seq!)).toBeGreaterThan(BigInt(buyRow.seq));
    await service.durable.drain();
    const trades = await store.db.selectFrom("spot_trade").select(["maker_order_id", "price", "quantity"]).where("taker_order_id", "=", ids.a!).execute();
    expect(trades.map((t) => [Number(t.price), Number(t.quantity)])).toEqual([[58600, 0.04]]);
    expect((await row(ids.b!)).status).toBe("open");
    expect(frozen("3", "BTC")).toBe("0.07"); // 0.06 resting at 58,500 and 0.01 at 61,000
    sound(service);
  });

  it("restores a fired stop behind the orders placed before it fired", async () => {
    await service.durable.drain();
    const market = service.markets.get("BTC/USDT")!;
    const before = { hash: service.durable.ledger.stateHash(), depth: market.book.depth(), market: market.stateHash() };
    service = await start();
    expect(service.durable.ledger.stateHash()).toBe(before.hash);
    expect(service.markets.get("BTC/USDT")!.stateHash()).toBe(before.market);
    expect(service.markets.get("BTC/USDT")!.book.depth()).toEqual(before.depth);
    expect(service.markets.get("BTC/USDT")!.waitingCount).toBe(0);
    sound(service);
    // Stop b fired at 59,000 and joined the 61,000 level behind the ask placed while it waited:
    // a buy of 0.07 takes stop a's 0.06 at 58,500, then that ask, not stop b.
    const buy = await service.placeOrder("1", limit("buy", "61000", "0.07"), "buy-61000");
    await service.durable.drain();
    const trades = await store.db
      .selectFrom("spot_trade")
      .select(["maker_order_id", "price"])
      .where("taker_order_id", "=", buy.orderId!)
      .orderBy("id")
      .execute();
    expect(trades.map((t) => [t.maker_order_id, Number(t.price)])).toEqual([
      [ids.a, 58500],
      [ids.ask, 61000],
    ]);
    expect((await row(ids.a!)).status).toBe("filled");
    expect((await row(ids.b!)).status).toBe("open");
  });
});
