import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultCode } from "../../protocol/result-codes";
import { Refusal } from "../locales/refusal";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { OrderHistoryService } from "./order-history-service";
import { SpotService } from "./spot-service";

// The answers themselves (figures, filters, paging, CSV) are pinned by engine/api/order-history.test.ts.
describe.each(testStoreKinds())("order history service on %s", (kind) => {
  let store: TestStore;
  let spot: SpotService;
  let history: OrderHistoryService;
  let n = 0;

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    spot = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      newOrderId: () => `ohs-${kind}-${++n}`,
    });
    history = new OrderHistoryService(store.db, spot.durable);
    await spot.durable.funds.deposit("1", "USDT", "spot", "100000", "ohs-dep-1");
    await spot.durable.funds.deposit("2", "BTC", "spot", "2", "ohs-dep-2");
  });
  afterAll(async () => {
    await spot?.durable.drain();
    await store?.dispose();
  });

  const bid = (key: string, price = "50000") =>
    spot.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "limit", price, quantity: "0.1", tif: "GTC" }, key).then((a) => {
      expect(a.code).toBe("OK");
      return a.orderId!;
    });

  it("waits for the tables to hold the member's last order before it answers", async () => {
    await spot.durable.drain();
    await spot.durable.projection.pause(true);
    const orderId = await bid("ohs-wait");
    const answer = history.orders("1", "current", {});
    const symbols = history.symbols("1");
    // The order is answered (journaled) but not yet in the tables.
    expect(await store.db.selectFrom("spot_order").select("order_id").where("order_id", "=", orderId).executeTakeFirst()).toBeUndefined();
    await spot.durable.projection.pause(false);
    expect((await answer).records.map((o) => o.orderId)).toContain(orderId);
    expect(await symbols).toEqual(["BTC/USDT"]);
  });

  it("refuses another member's order exactly like a missing one, with none of its trades", async () => {
    const orderId = await bid("ohs-own", "50001");
    await spot.placeOrder("2", { symbol: "BTC/USDT", side: "sell", type: "limit", price: "50001", quantity: "0.05", tif: "GTC" }, "ohs-sell");
    const own = await history.order("1", orderId, {});
    expect(own.order).toMatchObject({ orderId, filled: "0.05" });
    expect(own.trades).toMatchObject({ total: 1, current: 1, size: 20 });

    const refusal = async (p: Promise<unknown>) => {
      const error = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Refusal);
      return { code: (error as Refusal).code, reason: (error as Refusal).reason, text: (error as Refusal).messageIn("en") };
    };
    const foreign = await refusal(history.order("2", orderId, {}));
    expect(foreign).toEqual(await refusal(history.order("2", "nosuchorder", {})));
    expect(foreign.code).toBe(ResultCode.NOT_FOUND);
    expect((await history.orders("2", "current", {})).records.map((o) => o.orderId)).not.toContain(orderId);
  });
});
