import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { endpoints, type Endpoint } from "../../protocol/endpoints";
import { orderHistoryEndpoints } from "../../protocol/endpoints/order-history";
import { buildApp } from "../app";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Answer, type CallInput, type Caller } from "../testing/api-client";
import { OPERATOR, registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

// A small export limit, so the refusal is reachable with a few thousand rows.
vi.mock("../../protocol/endpoints/order-history", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../protocol/endpoints/order-history")>()),
  EXPORT_MAX_ROWS: 1500,
}));

const ADMIN = TEST_ADMIN_TOKEN;
const DAY = 86_400_000;
const DAY1 = Date.UTC(2026, 0, 10, 12, 0, 0);

type OrdersQuery = NonNullable<CallInput<typeof endpoints.myOrders>["query"]>;
type TradesQuery = NonNullable<CallInput<typeof endpoints.myTrades>["query"]>;

describe.each(testStoreKinds())("order history API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let clock = DAY1;
  let spot: SpotService;
  const members: Record<string, { token: string; uid: string; id: string }> = {};
  const ids: Record<string, string> = {};

  let client: ApiClient;
  const as = (name: string | null): Caller => (name ? { token: members[name]!.token } : {});
  /** The data of an answer that must be a success. */
  const ok = <E extends Endpoint>(answer: Answer<E>) => {
    expect(answer.code, answer.msg).toBe(200);
    return answer.data!;
  };
  const orders = (name: string, x: "current" | "history", query: OrdersQuery = {}) =>
    client.data(endpoints.myOrders, { params: { scope: x }, query }, as(name));
  const trades = (name: string, page: number, size: number, query: TradesQuery = {}) =>
    client.data(endpoints.myTrades, { params: { pageNo: String(page), pageSize: String(size), market: "spot" }, query }, as(name));
  const details = (name: string, id: string, query: { pageNo?: string; pageSize?: string } = {}, lang?: string) =>
    client.call(endpoints.orderDetails, { params: { orderId: id }, query }, { ...as(name), lang });
  const symbols = (name: string) => client.data(endpoints.orderSymbols, { body: {} }, as(name));
  const place = async (name: string, key: string, payload: object, type: "1" | "3" = "1") => {
    const answer = ok(
      await client.callUnchecked(endpoints.placeOrder, { params: { type }, body: { ...payload, idempotencyKey: `${name}-${key}-order` } }, as(name)),
    );
    ids[key] = answer.orderId;
    return answer;
  };
  /** The export answers a file: the raw response. */
  const exportCsv = (name: string | null, body: object) => client.send(endpoints.exportSpotTradeLog, { body }, as(name));

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale) values
      ('BTC/USDT', 'BTC', 'USDT', 2, 6), ('ETH/USDT', 'ETH', 'USDT', 2, 6)`.execute(store.db);
    spot = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      now: () => clock,
    });
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: ADMIN }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob", "carol", "dave", "erin"]) {
      const email = `${name}-oh-${kind}@example.com`;
      const { uid, token } = await registerAndLogIn(app, email, `device-${name}`);
      const row = await store.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow();
      members[name] = { token, uid, id: String(row.id) };
    }
    const fund = async (name: string, coin: string, amount: string) => {
      const res = await client.call(
        endpoints.adminDeposit,
        { body: { uid: members[name]!.uid, coin, account: "spot", amount, reference: `oh-${name}-${coin}` } },
        OPERATOR,
      );
      expect(res.code).toBe(200);
    };
    await fund("alice", "USDT", "100000");
    await fund("alice", "ETH", "5");
    await fund("bob", "BTC", "1");
    await fund("carol", "USDT", "10000");
    await fund("dave", "USDT", "1000");

    // Day 1: bob rests two asks; alice's buy takes the first and part of the second.
    await place("bob", "B1", { symbol: "BTC_USDT", direction: "sell", price: "60000", num: "0.1" });
    await place("bob", "B2", { symbol: "BTC_USDT", direction: "sell", price: "60000.01", num: "0.1" });
    await place("alice", "A1", { symbol: "BTC_USDT", direction: "buy", price: "60000.01", num: "0.15" });
    // Day 2: alice rests a low bid and an ETH ask.
    clock = DAY1 + DAY;
    await place("alice", "A2", { symbol: "BTC_USDT", direction: "buy", price: "50000", num: "0.01" });
    await place("alice", "A3", { symbol: "ETH_USDT", direction: "sell", price: "4000", num: "1" });
    // Day 3: alice cancels the bid and buys the rest of bob's second ask; carol lifts part of the ETH ask.
    clock = DAY1 + 2 * DAY;
    expect((await client.call(endpoints.cancelOrder, { body: { orderId: ids.A2! } }, as("alice"))).code).toBe(200);
    await place("alice", "A4", { symbol: "BTC_USDT", direction: "buy", price: "60000.01", num: "0.02" });
    await place("carol", "C1", { symbol: "ETH_USDT", direction: "buy", price: "4000", num: "0.4" });
  });
  afterAll(async () => {
    await spot?.durable.drain();
    await app?.close();
    await store?.dispose();
  });

  it("answers open orders and finished orders apart, newest first, each with its figures", async () => {
    const current = await orders("alice", "current");
    expect(current).toMatchObject({ total: 1, size: 20, current: 1, pages: 1 });
    expect(current.records[0]).toEqual({
      orderId: ids.A3,
      symbol: "ETH/USDT",
      account: "spot",
      side: "sell",
      type: "limit",
      tif: "GTC",
      status: "open",
      reason: null,
      price: "4000",
      stopProfitPrice: null,
      stopLossPrice: null,
      triggeredBy: null,
      clientOrderId: null,
      quantity: "1",
      money: null,
      filled: "0.4",
      filledValue: "1600",
      avgPrice: "4000",
      // Alice made this trade: the maker fee (10 bps) of what a seller receives, USDT.
      fee: "1.6",
      feeCoin: "USDT",
      trades: 1,
      createdAt: new Date(DAY1 + DAY).toISOString(),
      updatedAt: new Date(DAY1 + 2 * DAY).toISOString(),
    });

    const history = await orders("alice", "history");
    expect(history.records.map((o) => o.orderId)).toEqual([ids.A4, ids.A2, ids.A1]);
    const [a4, a2, a1] = history.records;
    // 0.1 at 60000 and 0.05 at 60000.01: 9000.0005 / 0.15 = 60000.003333…, cut to USDT's 8 decimals.
    expect(a1).toMatchObject({
      status: "filled",
      filled: "0.15",
      filledValue: "9000.0005",
      avgPrice: "60000.00333333",
      fee: "0.0003",
      feeCoin: "BTC",
      trades: 2,
    });
    expect(a2).toMatchObject({ status: "cancelled", reason: "user", filled: "0", filledValue: "0", avgPrice: null, fee: "0", trades: 0 });
    expect(a4).toMatchObject({ status: "filled", filled: "0.02", avgPrice: "60000.01", fee: "0.00004", feeCoin: "BTC" });

    // Bob's second ask: partly filled twice as maker, still open.
    const bob = await orders("bob", "current");
    expect(bob.records).toHaveLength(1);
    expect(bob.records[0]).toMatchObject({
      orderId: ids.B2,
      status: "open",
      filled: "0.07",
      filledValue: "4200.0007",
      avgPrice: "60000.01",
      fee: "4.2000007",
      feeCoin: "USDT",
      trades: 2,
    });
  });

  it("shows each member only their own orders and trades", async () => {
    const everyone = ["alice", "bob", "carol", "dave"];
    for (const name of everyone) {
      const own = new Set(
        Object.entries(ids)
          .filter(([key]) => key.startsWith(name[0]!.toUpperCase()))
          .map(([, id]) => id),
      );
      const seen = [...(await orders(name, "current")).records, ...(await orders(name, "history")).records].map((o) => o.orderId);
      expect(new Set(seen), name).toEqual(own);
      const fills = (await trades(name, 1, 100)).records;
      for (const fill of fills) expect(own.has(fill.orderId), `${name} sees ${fill.orderId}`).toBe(true);
    }
    expect((await orders("dave", "history")).records).toEqual([]);
    expect(await trades("dave", 1, 20)).toEqual({ records: [], total: 0, size: 20, current: 1, pages: 0 });
  });

  it("filters by symbol, side and day range (UTC days, both inclusive)", async () => {
    expect((await orders("alice", "current", { symbol: "BTC_USDT" })).records).toEqual([]);
    expect((await orders("alice", "current", { symbol: "ETH/USDT" })).records.map((o) => o.orderId)).toEqual([ids.A3]);
    expect((await orders("alice", "current", { side: "buy" })).total).toBe(0);
    expect((await orders("alice", "history", { side: "buy", symbol: "BTC_USDT" })).total).toBe(3);
    expect((await orders("alice", "history", { from: "2026-01-11", to: "2026-01-11" })).records.map((o) => o.orderId)).toEqual([ids.A2]);
    expect((await orders("alice", "history", { from: "2026-01-11" })).records.map((o) => o.orderId)).toEqual([ids.A4, ids.A2]);
    expect((await orders("alice", "history", { to: "2026-01-10" })).records.map((o) => o.orderId)).toEqual([ids.A1]);
    expect((await orders("alice", "history", { from: "2026-01-13" })).total).toBe(0);
    // Days the database cannot hold are refused with a message, not a 500.
    for (const query of [{ from: "0000-01-01" }, { to: "9999-12-31" }, { from: "1999-12-31" }]) {
      const res = await client.call(endpoints.myOrders, { params: { scope: "history" }, query }, as("alice"));
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.msg).toMatch(/between 2000-01-01 and 2099-12-31/);
    }

    const eth = await trades("alice", 1, 20, { symbol: "ETH_USDT" });
    expect(eth.records).toEqual([
      {
        tradeId: expect.any(String),
        orderId: ids.A3,
        symbol: "ETH/USDT",
        side: "sell",
        role: "maker",
        price: "4000",
        quantity: "0.4",
        value: "1600",
        fee: "1.6",
        feeCoin: "USDT",
        createdAt: new Date(DAY1 + 2 * DAY).toISOString(),
      },
    ]);
    expect((await trades("alice", 1, 20, { side: "sell" })).total).toBe(1);
    expect((await trades("alice", 1, 20, { side: "buy", from: "2026-01-10", to: "2026-01-10" })).records.map((t) => t.orderId)).toEqual([ids.A1, ids.A1]);
  });

  it("pages trades newest first with totals", async () => {
    const first = await trades("alice", 1, 3);
    expect(first).toMatchObject({ total: 4, size: 3, current: 1, pages: 2 });
    const second = await trades("alice", 2, 3);
    expect(second.records).toHaveLength(1);
    const all = [...first.records, ...second.records];
    expect(new Set(all.map((t) => t.tradeId)).size).toBe(4);
    const idsDesc = all.map((t) => BigInt(t.tradeId));
    expect([...idsDesc].sort((a, b) => (a > b ? -1 : 1))).toEqual(idsDesc);
    expect(all.map((t) => `${t.orderId}:${t.role}:${t.side}`)).toEqual([
      `${ids.A3}:maker:sell`,
      `${ids.A4}:taker:buy`,
      `${ids.A1}:taker:buy`,
      `${ids.A1}:taker:buy`,
    ]);
    expect((await orders("alice", "history", { pageNo: "2", pageSize: "2" })).records.map((o) => o.orderId)).toEqual([ids.A1]);
    expect((await trades("alice", 9, 3)).records).toEqual([]);
  });

  it("answers an own order with its trades, and someone else's like a missing one", async () => {
    const own = ok(await details("alice", ids.A1!));
    expect(own.order).toMatchObject({ orderId: ids.A1, avgPrice: "60000.00333333" });
    expect(own.trades.records.map((t) => [t.price, t.quantity, t.value, t.fee, t.role])).toEqual([
      ["60000", "0.1", "6000", "0.0002", "taker"],
      ["60000.01", "0.05", "3000.0005", "0.0001", "taker"],
    ]);
    const bobs = ok(await details("bob", ids.B2!, { pageSize: "1", pageNo: "2" }));
    expect(bobs.trades).toMatchObject({ total: 2, pages: 2, current: 2 });
    expect(bobs.trades.records).toMatchObject([{ orderId: ids.B2, role: "maker", side: "sell", quantity: "0.02", fee: "1.2000002", feeCoin: "USDT" }]);

    const foreign = await details("bob", ids.A1!);
    const missing = await details("bob", "nosuchorder");
    expect(foreign.status).toBe(404);
    expect(foreign).toEqual(missing);
    expect(foreign.msg).toBe("The order was not found.");
    expect((await details("bob", ids.A1!, {}, "de")).msg).toBe("Die Order wurde nicht gefunden.");
  });

  it("lists the symbols a member has orders in", async () => {
    expect(await symbols("alice")).toEqual(["BTC/USDT", "ETH/USDT"]);
    expect(await symbols("carol")).toEqual(["ETH/USDT"]);
    expect(await symbols("dave")).toEqual([]);
  });

  it("lists a waiting stop order as open, with its trigger and the limit it will enter at", async () => {
    const stop = await place("dave", "stop-1", { symbol: "BTC_USDT", direction: "buy", stopLossPrice: "70000", triggerMoney: "70001", num: "0.01" }, "3");
    expect(stop.status).toBe("waiting");
    expect((await orders("dave", "current")).records).toMatchObject([
      {
        orderId: stop.orderId,
        status: "waiting",
        type: "limit",
        price: "70001",
        stopLossPrice: "70000",
        stopProfitPrice: null,
        triggeredBy: null,
        filled: "0",
        avgPrice: null,
        fee: "0",
        feeCoin: "BTC",
      },
    ]);
    expect((await orders("dave", "history")).total).toBe(0);
    const csv = (await exportCsv("dave", { scope: "current" })).body.split("\r\n")[1]!;
    expect(csv).toContain(`,${stop.orderId},BTC/USDT,buy,limit,GTC,70001,,70000,,0.01,`);
  });

  it("exports orders and trades as CSV with exact decimals", async () => {
    const res = await exportCsv("alice", { scope: "history", from: "2026-01-10", to: "2026-01-12" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="spot-order-history-20260110-20260112.csv"');
    const lines = res.body.split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(lines[0]).toBe(
      "Time (UTC),Order ID,Symbol,Side,Type,Time in force,Price,Stop-profit price,Stop-loss price,Triggered by,Amount,Total,Filled,Filled value,Average price,Fee,Fee coin,Trades,Status,Reason,Updated (UTC),Account",
    );
    expect(lines.slice(1, -1)).toEqual([
      `2026-01-12 12:00:00,${ids.A4},BTC/USDT,buy,limit,GTC,60000.01,,,,0.02,,0.02,1200.0002,60000.01,0.00004,BTC,1,filled,,2026-01-12 12:00:00,spot`,
      `2026-01-11 12:00:00,${ids.A2},BTC/USDT,buy,limit,GTC,50000,,,,0.01,,0,0,,0,BTC,0,cancelled,user,2026-01-12 12:00:00,spot`,
      `2026-01-10 12:00:00,${ids.A1},BTC/USDT,buy,limit,GTC,60000.01,,,,0.15,,0.15,9000.0005,60000.00333333,0.0003,BTC,2,filled,,2026-01-10 12:00:00,spot`,
    ]);

    const fills = await exportCsv("bob", { scope: "trades", symbol: "BTC_USDT" });
    expect(fills.headers["content-disposition"]).toMatch(/^attachment; filename="spot-trades-BTC_USDT-\d{8}\.csv"$/);
    const rows = fills.body.trim().split("\r\n");
    expect(rows[0]).toBe("Time (UTC),Trade ID,Order ID,Symbol,Side,Role,Price,Quantity,Value,Fee,Fee coin");
    expect(rows.slice(1).map((r) => r.split(",").slice(2).join(","))).toEqual([
      `${ids.B2},BTC/USDT,sell,maker,60000.01,0.02,1200.0002,1.2000002,USDT`,
      `${ids.B2},BTC/USDT,sell,maker,60000.01,0.05,3000.0005,3.0000005,USDT`,
      `${ids.B1},BTC/USDT,sell,maker,60000,0.1,6000,6,USDT`,
    ]);

    const open = await exportCsv("carol", { scope: "current" });
    expect(open.body).toBe(`${lines[0]}\r\n`);
  });

  it("exports in batches and refuses an export larger than the limit", async () => {
    await sql`insert into spot_order (order_id, member_id, symbol, side, type, tif, price, quantity, filled, status, reason, created_at, updated_at)
      select 'bulk' || g, ${members.erin!.id}, case when g <= 1100 then 'XRP/USDT' else 'DOGE/USDT' end, 'buy', 'limit', 'GTC', '0.5', '10', '0', 'cancelled', 'user',
        timestamptz '2026-02-01 00:00:00+00' + g * interval '1 second', timestamptz '2026-02-01 00:00:00+00' + g * interval '1 second'
      from generate_series(1, 2100) g`.execute(store.db);
    const tooMany = await exportCsv("erin", { scope: "history" });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({
      code: 400,
      success: false,
      msg: "More than 1,500 rows match. Narrow the date range or choose a market, then export again.",
    });

    const xrp = await exportCsv("erin", { scope: "history", symbol: "XRP_USDT" });
    const rows = xrp.body.trim().split("\r\n").slice(1);
    expect(rows).toHaveLength(1100);
    expect(rows[0]!.split(",")[1]).toBe("bulk1100");
    expect(rows.at(-1)!.split(",")[1]).toBe("bulk1");
    expect(new Set(rows.map((r) => r.split(",")[1])).size).toBe(1100);
    expect(await symbols("erin")).toEqual(["DOGE/USDT", "XRP/USDT"]);
  });

  it("refuses bad input with 400 naming the field, and strangers with 401", async () => {
    const myOrders = (x: string, query: Record<string, string> = {}) => client.callUnchecked(endpoints.myOrders, { params: { scope: x }, query }, as("alice"));
    const myTrades = (pageNo: string, market: string) => client.callUnchecked(endpoints.myTrades, { params: { pageNo, pageSize: "20", market } }, as("alice"));
    const exportRefusal = (body: object) => client.callUnchecked(endpoints.exportSpotTradeLog, { body }, as("alice"));
    const refusals: Array<[string, Promise<{ status: number; msg: string; reason?: string }>, RegExp]> = [
      ["scope", myOrders("all"), /scope: must be current or history/],
      ["pageSize", myOrders("history", { pageSize: "101" }), /pageSize: must be 100 or less/],
      ["pageNo", myOrders("history", { pageNo: "0" }), /pageNo: must be 1 or more/],
      ["date", myOrders("history", { from: "2026-02-30" }), /from: must be a real date/],
      ["date format", myOrders("history", { to: "31.01.2026" }), /to: must be a real date such as 2026-01-31/],
      ["range", myOrders("history", { from: "2026-02-02", to: "2026-02-01" }), /to: must not be before from/],
      ["symbol", myOrders("history", { symbol: "btc" }), /symbol: must be a symbol/],
      ["side", myOrders("history", { side: "long" }), /side: must be buy or sell/],
      ["market", myTrades("1", "margin"), /market: must be spot/],
      ["trade page", myTrades("x", "spot"), /pageNo: must be an integer/],
      ["order id", details("alice", "a b"), /orderId: must be an order id/],
      ["scope", exportRefusal({ scope: "everything" }), /scope: must be current, history or trades/],
      ["export range", exportRefusal({ scope: "trades", from: "2026-02-02", to: "2026-02-01" }), /to: must not be before from/],
      ["export day", exportRefusal({ scope: "trades", from: "1999-12-31" }), /^Invalid body: from: must be between 2000-01-01 and 2099-12-31$/],
      // A shared field's message is a text key (protocol/fields.ts): the answer is in the request's language.
      [
        "symbol in German",
        client.callUnchecked(endpoints.myOrders, { params: { scope: "history" }, query: { symbol: "btc" } }, { ...as("alice"), lang: "de" }),
        /^Ungültige Abfrage: symbol: muss ein Handelspaar wie BTC_USDT sein$/,
      ],
      [
        "day in Chinese",
        client.callUnchecked(endpoints.myOrders, { params: { scope: "history" }, query: { from: "1999-12-31" } }, { ...as("alice"), lang: "zh_cn" }),
        /^查询参数无效: from: 必须在 2000-01-01 到 2099-12-31 之间$/,
      ],
    ];
    for (const [what, answer, message] of refusals) {
      const res = await answer;
      expect(res.status, what).toBe(400);
      expect(res.msg, what).toMatch(message);
      expect(res.reason, what).toBe("VALIDATION");
    }
    for (const res of [
      await client.send(endpoints.myOrders, { params: { scope: "current" } }),
      await client.send(endpoints.myTrades, { params: { pageNo: "1", pageSize: "20", market: "spot" } }),
      await client.send(endpoints.orderDetails, { params: { orderId: ids.A1! } }),
      await client.send(endpoints.orderSymbols, { body: {} }),
      await exportCsv(null, { scope: "history" }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain(ids.A1!);
    }
  });

  const garbage: unknown[] = [undefined, null, "", 42, [], {}, "x".repeat(70_000), "\u0000", "%00", { scope: "trades", from: "9999-99-99" }];
  it.each(Object.entries(orderHistoryEndpoints))("%s never answers 5xx to malformed input", async (_name, endpoint) => {
    for (const value of garbage) {
      for (const caller of [{}, as("alice")]) {
        const param = String(value ?? "x");
        const params = Object.fromEntries([...endpoint.path.matchAll(/:(\w+)/g)].map(([, name]) => [name!, param]));
        const text = String(value).slice(0, 500);
        const res = await client.send(
          endpoint,
          {
            params,
            query: { symbol: text, from: text, to: text, side: text, pageNo: text, pageSize: text },
            body: endpoint.method === "POST" ? (value === undefined ? "{bad" : JSON.stringify(value)) : undefined,
          },
          { ...caller, headers: { "content-type": "application/json" } },
        );
        expect(res.statusCode, `${endpoint.path} ${JSON.stringify(value)?.slice(0, 30)}`).toBeLessThan(500);
      }
    }
  });
});
