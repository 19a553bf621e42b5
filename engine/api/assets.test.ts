import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

describe.each(testStoreKinds())("assets overview API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let spot: SpotService;
  let client: ApiClient;
  const members: Record<string, { token: string; id: string }> = {};
  const as = (name: string): Caller => ({ token: members[name]!.token });

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
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob"]) {
      const { uid, token } = await registerAndLogIn(app, `${name}-assets-${kind}@example.com`, `device-assets-${name}`);
      members[name] = { token, id: String((await store.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow()).id) };
    }
    const { funds } = spot.durable;
    await funds.deposit(members.alice!.id, "USDT", "funding", "1000", "assets-a-usdt");
    await funds.deposit(members.alice!.id, "BTC", "funding", "0.5", "assets-a-btc");
    await funds.deposit(members.bob!.id, "BTC", "spot", "1", "assets-b-btc");
    await funds.deposit(members.bob!.id, "USDT", "spot", "100000", "assets-b-usdt");
    // Bob's sell and Alice's buy trade at 60,000: BTC/USDT's last price.
    await spot.placeOrder(members.bob!.id, { symbol: "BTC/USDT", side: "sell", type: "limit", price: "60000", quantity: "0.1", tif: "GTC" }, null);
    await funds.deposit(members.alice!.id, "USDT", "spot", "6000", "assets-a-spot");
    await spot.placeOrder(members.alice!.id, { symbol: "BTC/USDT", side: "buy", type: "limit", price: "60000", quantity: "0.01", tif: "GTC" }, null);
  });
  afterAll(async () => {
    await app?.close();
    await spot?.durable.drain();
    await store?.dispose();
  });

  it("values each account in USDT at the last price, with type 0 their total", async () => {
    const accounts = await client.data(endpoints.walletAccounts, {}, as("alice"));
    // Funding: 1000 USDT + 0.5 BTC × 60,000. Spot: 6000 − 600 USDT + 0.01 BTC less the buyer's fee in BTC.
    const byType = Object.fromEntries(accounts.map((a) => [a.type, a.usdt]));
    expect(byType["1"]).toBe("31000");
    expect(Number(byType["2"])).toBeGreaterThan(5_990);
    expect(Object.keys(byType)).toEqual(["0", "1", "2", "4"]);
    const sum = (["1", "2", "4"] as const).reduce((s, t) => s + Number(byType[t]), 0);
    expect(Number(byType["0"])).toBeCloseTo(sum, 6);
  });

  it("lists one account's coins with their value; a coin without a price is worth null", async () => {
    const funding = await client.data(endpoints.currencyAccount, { query: { type: "1" } }, as("alice"));
    expect(funding.find((c) => c.coin === "BTC")).toEqual({ coin: "BTC", name: "Bitcoin", scale: 8, available: "0.5", frozen: "0", usdt: "30000" });
    expect(funding.find((c) => c.coin === "USDT")).toMatchObject({ available: "1000", usdt: "1000" });
    expect(funding.find((c) => c.coin === "DOGE")).toMatchObject({ available: "0", usdt: null });
    const bob = await client.data(endpoints.currencyAccount, { query: { type: "2" } }, as("bob"));
    expect(bob.find((c) => c.coin === "BTC")).toMatchObject({ available: "0.9", frozen: "0.09" });
  });

  it("answers what can leave the contract account, the member's own only", async () => {
    expect(
      (await client.call(endpoints.transfer, { query: { from: "1", to: "4", coin: "USDT", amount: "250", idempotencyKey: "assets-to-contract" } }, as("alice")))
        .code,
    ).toBe(200);
    expect(await client.data(endpoints.contractTransferable, { params: { coin: "USDT" } }, as("alice"))).toEqual({ coin: "USDT", transferable: "250" });
    expect(await client.data(endpoints.contractTransferable, { params: { coin: "USDT" } }, as("bob"))).toEqual({ coin: "USDT", transferable: "0" });
    expect(await client.call(endpoints.contractTransferable, { params: { coin: "NOPE" } }, as("alice"))).toMatchObject({ code: 400, reason: "COIN_UNKNOWN" });
    expect(await client.call(endpoints.walletAccounts, {}, {})).toMatchObject({ code: 401 });
  });
});
