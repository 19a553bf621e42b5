import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spotEndpoints } from "../../protocol/endpoints/spot";
import { buildApp } from "../app";
import { SpotService } from "../spot/spot-service";
import { registerAndLogIn } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

const API = "/api/mjkj-web";
const ADMIN = "spot-test-admin-token-0123456789";

describe.each(testStoreKinds())("spot API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  const members: Record<string, { token: string; uid: string }> = {};

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale) values ('BTC/USDT', 'BTC', 'USDT', 2, 6)`.execute(store.db);
    const spot = await SpotService.start({ db: store.db, onFatal: (e) => { throw e; } });
    app = await buildApp({ store, apiHead: "mjkj-web", spot, services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: ADMIN }) });
    await app.ready();
    for (const name of ["alice", "bob"]) {
      const email = `${name}-${kind}@example.com`;
      const { uid, token } = await registerAndLogIn(app, email, `device-${name}`);
      members[name] = { token, uid };
    }
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const as = (name: string) => ({ "blade-auth": `bearer ${members[name]!.token}` });
  const place = (name: string, type: "1" | "2" | "3", payload: object) =>
    app.inject({ method: "POST", url: `${API}/coin/entrust/exchange/${type}`, headers: as(name), payload }).then((r) => r.json());
  const balance = async (name: string, type: "1" | "2", coin: string) =>
    (await app.inject({ method: "GET", url: `${API}/coin/assets/getMyBalance?type=${type}`, headers: as(name) })).json().data.find((b: { coin: string }) => b.coin === coin);

  it("credits by the operator, moves funds to spot, trades and cancels", async () => {
    const deposit = (uid: string, coin: string, amount: string, reference: string, token = ADMIN) =>
      app.inject({ method: "POST", url: "/admin/deposit", headers: { "x-admin-token": token }, payload: { uid, coin, account: "funding", amount, reference } });
    expect((await deposit(members.alice!.uid, "USDT", "10000", "ref-a", "wrong-token-wrong-token-wrong-token")).statusCode).toBe(403);
    expect((await deposit(members.alice!.uid, "USDT", "10000", "ref-a")).json().code).toBe(200);
    expect((await deposit(members.alice!.uid, "USDT", "10000", "ref-a")).json().code).toBe(409); // same reference
    expect((await deposit(members.bob!.uid, "BTC", "1", "ref-b")).json().code).toBe(200);
    expect(await balance("alice", "1", "USDT")).toEqual({ coin: "USDT", available: "10000", frozen: "0" });

    const trans = (name: string, q: string) => app.inject({ method: "GET", url: `${API}/coin/wallet/trans?${q}`, headers: as(name) }).then((r) => r.json());
    expect((await trans("alice", "from=1&to=2&coin=USDT&amount=20000&idempotencyKey=trans-a-0")).msg).toBe("Insufficient Available Balance");
    expect((await trans("alice", "from=1&to=2&coin=USDT&amount=6000&idempotencyKey=trans-a-1")).code).toBe(200);
    expect((await trans("bob", "from=1&to=2&coin=BTC&amount=1&idempotencyKey=trans-b-1")).code).toBe(200);
    expect(await balance("alice", "2", "USDT")).toEqual({ coin: "USDT", available: "6000", frozen: "0" });

    const resting = await place("bob", "1", { symbol: "BTC_USDT", direction: "sell", price: "60000", num: "0.05", idempotencyKey: "bob-order-1" });
    expect(resting.data).toMatchObject({ status: "open", filled: "0" });
    expect(await balance("bob", "2", "BTC")).toEqual({ coin: "BTC", available: "0.95", frozen: "0.05" });
    const tooBig = await place("alice", "1", { symbol: "BTC_USDT", direction: "buy", price: "60000", num: "1", idempotencyKey: "alice-order-0" });
    expect(tooBig).toMatchObject({ code: 400, msg: "Insufficient Available Balance" });
    const market = await place("alice", "2", { symbol: "BTC_USDT", direction: "buy", money: "1500", idempotencyKey: "alice-order-1" });
    expect(market.data).toMatchObject({ status: "filled", filled: "0.025", trades: 1 });
    const retried = await place("alice", "2", { symbol: "BTC_USDT", direction: "buy", money: "1500", idempotencyKey: "alice-order-1" });
    expect(retried.data).toEqual(market.data);
    expect(await balance("alice", "2", "USDT")).toEqual({ coin: "USDT", available: "4500", frozen: "0" });

    const cancelByOther = await app.inject({ method: "POST", url: `${API}/coin/entrust/cancel/entrust`, headers: as("alice"), payload: { orderId: resting.data.orderId } });
    expect(cancelByOther.json().code).toBe(400);
    const cancel = await app.inject({ method: "POST", url: `${API}/coin/entrust/cancel/entrust`, headers: as("bob"), payload: { orderId: resting.data.orderId } });
    expect(cancel.json().code).toBe(200);
    expect(await balance("bob", "2", "BTC")).toEqual({ coin: "BTC", available: "0.975", frozen: "0" });
  });

  it("refuses incomplete orders and wrong precision with a message", async () => {
    expect((await place("alice", "1", { symbol: "BTC_USDT", direction: "buy", num: "0.01", idempotencyKey: "bad-order-1" })).code).toBe(400);
    expect((await place("alice", "2", { symbol: "BTC_USDT", direction: "buy", num: "0.01", money: "10", idempotencyKey: "bad-order-2" })).code).toBe(400);
    expect((await place("alice", "1", { symbol: "BTC_USDT", direction: "buy", price: "1.001", num: "0.01", idempotencyKey: "bad-order-3" })).msg).toBe("The price has too many decimals for this market.");
    expect((await place("alice", "1", { symbol: "BTC_USDT", direction: "buy", price: "1", num: "0.000001", idempotencyKey: "bad-order-4" })).msg).toBe("The amount is below this market's minimum.");
  });

  it("refuses prices and amounts beyond what the database keeps, and keeps serving", async () => {
    // Cheap to pay (a sell of the minimum), but 10^20 would overflow NUMERIC(38, 18) at commit.
    for (const [i, body] of [
      { direction: "sell", price: "100000000000000000000", num: "0.00001" },
      { direction: "sell", price: "1000000000000000", num: "0.00001" },
      { direction: "buy", price: "1", num: "1000000000000000" },
    ].entries()) {
      const answer = await place("bob", "1", { symbol: "BTC_USDT", idempotencyKey: `huge-order-${i}`, ...body });
      expect(answer.code, JSON.stringify(body)).toBe(400);
      expect(answer.msg).toMatch(/below 1,000,000,000,000,000/);
    }
    const stop = await place("bob", "3", { symbol: "BTC_USDT", direction: "sell", num: "0.00001", stopProfitPrice: "999999999999999999", idempotencyKey: "huge-stop-1" });
    expect(stop.code).toBe(400);
    // The engine still answers and commits.
    expect((await place("bob", "1", { symbol: "BTC_USDT", direction: "sell", price: "999999999", num: "0.00001", idempotencyKey: "huge-order-ok" })).code).toBe(200);
  });

  const garbage: unknown[] = [undefined, null, "", 42, [], {}, "x".repeat(70_000), "\u0000", { symbol: "BTC_USDT", direction: "buy", price: "-1", num: "1e9", idempotencyKey: "x" }];
  it.each(Object.entries(spotEndpoints))("%s never answers 5xx to malformed input", async (_name, endpoint) => {
    for (const value of garbage) {
      for (const headers of [{}, as("alice")]) {
        const path = (endpoint.absolute ? endpoint.path : `${API}/${endpoint.path}`).replace(/:(\w+)/g, () => encodeURIComponent(String(value ?? "x")));
        const text = String(value).slice(0, 500);
        const res = await app.inject({
          method: endpoint.method,
          url: `${path}?${new URLSearchParams({ type: text, from: text, coin: text, amount: text })}`,
          headers: { ...headers, "content-type": "application/json" },
          payload: endpoint.method === "POST" ? (value === undefined ? "{bad" : JSON.stringify(value)) : undefined,
        });
        expect(res.statusCode, `${endpoint.path} ${JSON.stringify(value)?.slice(0, 30)}`).toBeLessThan(500);
      }
    }
  });
});
