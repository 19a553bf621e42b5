import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { SpotService, type PlaceOrderInput } from "./spot-service";

/** The rows and the answer of one command folded from its events (decision 017, step 6), in the case that folds the most. */
describe("an order that a stop it fired fills as a maker, in one command", () => {
  let store: TestStore;
  let service: SpotService;
  let n = 0;
  const limit = (side: "buy" | "sell", price: string, quantity: string): PlaceOrderInput => ({
    symbol: "BTC/USDT",
    side,
    type: "limit",
    price,
    quantity,
    tif: "GTC",
  });

  beforeAll(async () => {
    store = await openTestStore("pglite");
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    service = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      newOrderId: () => `fold-${++n}`,
    });
    await service.durable.funds.deposit("1", "USDT", "spot", "100000", "fold-dep-1");
    for (const m of ["2", "3"]) await service.durable.funds.deposit(m, "BTC", "spot", "2", `fold-dep-${m}`);
  });
  afterAll(async () => {
    await service?.durable.drain();
    await store?.dispose();
  });

  it("answers and writes the order filled in full: its own trade as the taker and the stop's against it", async () => {
    // The last price: 61,000.
    await service.placeOrder("2", limit("sell", "61000", "0.01"), null);
    await service.placeOrder("1", limit("buy", "61000", "0.01"), null);
    // Carol's stop-loss sell waits for 60,500; Bob offers 0.1 at 60,000.
    const stop = await service.placeOrder("3", { ...limit("sell", "59000", "0.1"), stopLossPrice: "60500" }, "fold-stop");
    expect(stop.status).toBe("waiting");
    const ask = await service.placeOrder("2", limit("sell", "60000", "0.1"), "fold-ask");
    // Alice bids 0.2 at 60,000: 0.1 from Bob (the price falls to 60,000, Carol's stop fires),
    // then Carol's fired sell takes the 0.1 of Alice's bid that rested — in the same command.
    const bid = await service.placeOrder("1", limit("buy", "60000", "0.2"), "fold-bid");
    expect(bid).toEqual({ code: "OK", orderId: bid.orderId, status: "filled", filled: "0.2", trades: 2, remaining: "0", endReason: "filled" });
    await service.durable.drain();
    const rows = await store.db
      .selectFrom("spot_order")
      .select(["order_id", "status", "filled", "triggered_by"])
      .where("order_id", "in", [bid.orderId!, ask.orderId!, stop.orderId!])
      .execute();
    const byId = new Map(rows.map((r) => [r.order_id, { status: r.status, filled: Number(r.filled), triggered_by: r.triggered_by }]));
    expect(byId.get(bid.orderId!)).toEqual({ status: "filled", filled: 0.2, triggered_by: null });
    expect(byId.get(ask.orderId!)).toEqual({ status: "filled", filled: 0.1, triggered_by: null });
    expect(byId.get(stop.orderId!)).toEqual({ status: "filled", filled: 0.1, triggered_by: "loss" });
    const trades = await store.db
      .selectFrom("spot_trade")
      .select(["taker_order_id", "maker_order_id", "price"])
      .where("maker_order_id", "in", [bid.orderId!, ask.orderId!])
      .orderBy("id")
      .execute();
    expect(trades.map((t) => [t.taker_order_id, t.maker_order_id, Number(t.price)])).toEqual([
      [bid.orderId, ask.orderId, 60000],
      [stop.orderId, bid.orderId, 60000],
    ]);
    expect(service.durable.ledger.checkInvariants()).toEqual([]);
    expect(service.durable.funds.balances("1", "spot").find((b) => b.coin === "USDT")!.frozen).toBe("0");
  });
});
