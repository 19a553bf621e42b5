import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { SpotService } from "../spot/spot-service";
import { ApiClient } from "../testing/api-client";
import { OPERATOR, registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

const ADMIN = TEST_ADMIN_TOKEN;

/** `coin/entrust/exchange/3`: stop (plan) orders, docs/decisions/009. */
describe.each(testStoreKinds())("spot API stop orders on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let spot: SpotService;
  let client: ApiClient;
  const members: Record<string, { token: string; uid: string }> = {};

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale) values ('BTC/USDT', 'BTC', 'USDT', 2, 6)`.execute(
      store.db,
    );
    spot = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
    });
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: ADMIN }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob"]) {
      const email = `${name}-stops-${kind}@example.com`;
      const { uid, token } = await registerAndLogIn(app, email, `device-stops-${name}`);
      members[name] = { token, uid };
      for (const [coin, amount] of [
        ["USDT", "100000"],
        ["BTC", "1"],
      ]) {
        const res = await client.call(
          endpoints.adminDeposit,
          { body: { uid, coin: coin!, account: "spot", amount: amount!, reference: `stops-${name}-${coin}` } },
          OPERATOR,
        );
        expect(res.code).toBe(200);
      }
    }
    // The last price: 60,000.
    await place("bob", "1", { symbol: "BTC_USDT", direction: "sell", price: "60000", num: "0.01", idempotencyKey: "stops-first-sell" });
    expect(
      (await place("alice", "1", { symbol: "BTC_USDT", direction: "buy", price: "60000", num: "0.01", idempotencyKey: "stops-first-buy" })).data!.status,
    ).toBe("filled");
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const as = (name: string, lang?: string) => ({ token: members[name]!.token, lang });
  /** Unchecked: the refusals below send bodies the schema or the order rules refuse. */
  const place = (name: string, type: "1" | "2" | "3", body: object, lang?: string) =>
    client.callUnchecked(endpoints.placeOrder, { params: { type }, body }, as(name, lang));
  const cancel = (name: string, orderId: string) => client.call(endpoints.cancelOrder, { body: { orderId } }, as(name));
  const balance = async (name: string, coin: string) =>
    (await client.data(endpoints.balances, { query: { type: "2" } }, as(name))).find((b) => b.coin === coin);

  let key = 0;
  const sellBtc = { symbol: "BTC_USDT", direction: "sell" };
  const buyBtc = { symbol: "BTC_USDT", direction: "buy" };
  it.each<[string, "1" | "2" | "3", object, string]>([
    ["no stop price", "3", { ...sellBtc, num: "0.01" }, "A stop order needs a stop-profit price, a stop-loss price or both."],
    [
      "stop price on a limit order",
      "1",
      { ...sellBtc, price: "60000", num: "0.01", stopLossPrice: "59000" },
      "Stop-profit, stop-loss and trigger prices belong to stop orders.",
    ],
    [
      "triggerMoney on a market order",
      "2",
      { ...sellBtc, num: "0.01", triggerMoney: "59000" },
      "Stop-profit, stop-loss and trigger prices belong to stop orders.",
    ],
    [
      "a market stop buy by amount",
      "3",
      { ...buyBtc, num: "0.01", stopLossPrice: "61000" },
      "A stop market buy is placed with the amount to spend, not an amount of coin.",
    ],
    [
      "a market stop buy with both",
      "3",
      { ...buyBtc, num: "0.01", money: "100", stopLossPrice: "61000" },
      "A stop market buy is placed with the amount to spend, not an amount of coin.",
    ],
    ["price instead of triggerMoney", "3", { ...sellBtc, price: "59000", num: "0.01", stopLossPrice: "59000" }, "This order cannot be placed."],
    ["triggerMoney without num", "3", { ...buyBtc, triggerMoney: "59000", money: "100", stopProfitPrice: "59000" }, "This order cannot be placed."],
    ["a market stop sell by money", "3", { ...sellBtc, money: "100", stopLossPrice: "59000" }, "This order cannot be placed."],
    [
      "a sell stop-loss above the last price",
      "3",
      { ...sellBtc, num: "0.01", stopLossPrice: "60500" },
      "For a sell, the stop-loss price must be below the last price.",
    ],
    [
      "a sell stop-profit at the last price",
      "3",
      { ...sellBtc, num: "0.01", stopProfitPrice: "60000" },
      "For a sell, the stop-profit price must be above the last price.",
    ],
    [
      "a buy stop-profit above the last price",
      "3",
      { ...buyBtc, triggerMoney: "61000", num: "0.01", stopProfitPrice: "61000" },
      "For a buy, the stop-profit price must be below the last price.",
    ],
    [
      "a buy stop-loss below the last price",
      "3",
      { ...buyBtc, money: "100", stopLossPrice: "59000" },
      "For a buy, the stop-loss price must be above the last price.",
    ],
    [
      "crossed buy prices",
      "3",
      { ...buyBtc, money: "100", stopProfitPrice: "61000", stopLossPrice: "59000" },
      "For a buy, the stop-profit price must be below the stop-loss price.",
    ],
    ["a stop price off tick", "3", { ...sellBtc, num: "0.01", stopLossPrice: "59000.001" }, "The price has too many decimals for this market."],
    ["more than the balance", "3", { ...sellBtc, num: "5", stopLossPrice: "59000" }, "Insufficient available balance"],
  ])("refuses %s with a message, holding nothing", async (_name, type, body, msg) => {
    const before = [await balance("bob", "BTC"), await balance("bob", "USDT")];
    const answer = await place("bob", type, { ...body, idempotencyKey: `stops-bad-${++key}` });
    expect(answer).toMatchObject({ code: 400, msg });
    expect([await balance("bob", "BTC"), await balance("bob", "USDT")]).toEqual(before);
  });

  it("words the refusal in the member's language", async () => {
    const answer = await place("bob", "3", { ...sellBtc, num: "0.01", stopLossPrice: "60500", idempotencyKey: "stops-bad-de" }, "de");
    expect(answer.msg).toBe("Bei einem Verkauf muss der Stop-Loss-Preis unter dem letzten Preis liegen.");
  });

  it("answers a stop as waiting, holds its funds once however often it is retried, then fires it", async () => {
    const body = { ...buyBtc, triggerMoney: "59000", num: "0.01", stopProfitPrice: "59000", idempotencyKey: "stops-dip-buy" };
    const [first, concurrent] = await Promise.all([place("alice", "3", body), place("alice", "3", body)]);
    expect(first.data).toEqual({ orderId: expect.any(String), status: "waiting", filled: "0", trades: 0, remaining: "0.01" });
    expect(concurrent.data).toEqual(first.data);
    expect((await place("alice", "3", body)).data).toEqual(first.data);
    expect(await balance("alice", "USDT")).toMatchObject({ frozen: "590" });

    // A trade at 59,000 fires it; it buys bob's remaining 0.01 at 59,000 in the same command.
    await place("bob", "1", { ...sellBtc, price: "59000", num: "0.02", idempotencyKey: "stops-bob-ask" });
    const trade = await place("alice", "1", { ...buyBtc, price: "59000", num: "0.01", idempotencyKey: "stops-alice-buy" });
    expect(trade.data).toMatchObject({ status: "filled", trades: 1 });
    expect(await balance("alice", "USDT")).toMatchObject({ frozen: "0" });
    await spot.durable.drain(); // the tables are written behind the answers
    const row = await store.db
      .selectFrom("spot_order")
      .select(["status", "filled", "triggered_by"])
      .where("order_id", "=", first.data!.orderId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "filled", triggered_by: "profit" });
    expect(Number(row.filled)).toBe(0.01);
  });

  it("cancels a waiting stop for its owner only, releasing its hold", async () => {
    const placed = await place("bob", "3", { ...sellBtc, num: "0.03", stopProfitPrice: "70000", stopLossPrice: "50000", idempotencyKey: "stops-oco" });
    expect(placed.data!.status).toBe("waiting");
    expect(await balance("bob", "BTC")).toMatchObject({ frozen: "0.03" });
    expect((await cancel("alice", placed.data!.orderId)).code).toBe(400);
    expect(await balance("bob", "BTC")).toMatchObject({ frozen: "0.03" });
    expect((await cancel("bob", placed.data!.orderId)).code).toBe(200);
    expect(await balance("bob", "BTC")).toMatchObject({ frozen: "0" });
    expect((await cancel("bob", placed.data!.orderId)).msg).toBe("The order was not found or is already closed.");
  });
});
