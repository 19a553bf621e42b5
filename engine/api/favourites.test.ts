import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints, type Endpoint } from "../../protocol/endpoints";
import { favouriteEndpoints } from "../../protocol/endpoints/favourites";
import { buildApp } from "../app";
import { ApiClient, type CallInput } from "../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

describe.each(testStoreKinds())("favourites API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let client: ApiClient;
  let clock = Date.parse("2025-01-01T00:00:00Z");
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`
      insert into market_symbol (symbol_name, coin_symbol, quote_symbol, enabled) values
        ('BTC/USDT', 'BTC', 'USDT', true), ('ETH/USDT', 'ETH', 'USDT', true),
        ('SOL/USDT', 'SOL', 'USDT', true), ('OLD/USDT', 'OLD', 'USDT', false)
    `.execute(store.db);
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", now: () => clock, adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob"]) {
      const email = `${name}-fav-${kind}@example.com`;
      tokens[name] = (await registerAndLogIn(app, email, `device-${name}`)).token;
    }
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const call = async <E extends Endpoint>(name: string | null, endpoint: E, input: CallInput<E> = {}, lang = "en") => {
    clock += 1_000; // each change at its own time, so "oldest first" is observable
    return client.call(endpoint, input, { token: name ? tokens[name] : undefined, lang });
  };
  /** `pair` as the path names it: base and quote coin, `ETH/USDT`. */
  const coins = (pair: string) => {
    const [base, quote] = pair.split("/") as [string, string];
    return { params: { base, quote } };
  };
  const add = (name: string, pair: string, lang?: string) => call(name, endpoints.addOptional, coins(pair), lang);
  const cancel = (name: string, pair: string) => call(name, endpoints.cancelOptional, coins(pair));
  const list = (name: string) => call(name, endpoints.getOptional).then((r) => r.data);

  it("adds, lists oldest first, ignores a second add, and cancels", async () => {
    expect(await list("alice")).toEqual([]);
    expect((await add("alice", "ETH/USDT")).data).toEqual(["ETH/USDT"]);
    expect((await add("alice", "BTC/USDT")).data).toEqual(["ETH/USDT", "BTC/USDT"]);
    const again = await add("alice", "ETH/USDT");
    expect(again).toMatchObject({ code: 200, data: ["ETH/USDT", "BTC/USDT"] });
    expect(await list("alice")).toEqual(["ETH/USDT", "BTC/USDT"]);

    expect((await cancel("alice", "ETH/USDT")).data).toEqual(["BTC/USDT"]);
    // Cancelling what is not a favourite is harmless too.
    expect(await cancel("alice", "ETH/USDT")).toMatchObject({ code: 200, data: ["BTC/USDT"] });
    expect(await cancel("alice", "SOL/USDT")).toMatchObject({ code: 200, data: ["BTC/USDT"] });
    expect(await list("alice")).toEqual(["BTC/USDT"]);
  });

  it("keeps each member's favourites to themselves", async () => {
    await add("bob", "SOL/USDT");
    expect(await list("bob")).toEqual(["SOL/USDT"]);
    expect(await list("alice")).not.toContain("SOL/USDT");
    // Bob cancelling Alice's favourite only touches Bob's list.
    await cancel("bob", "BTC/USDT");
    expect(await list("alice")).toContain("BTC/USDT");
  });

  it("refuses an unknown or delisted symbol with a clear, localized 400 and stores nothing", async () => {
    const before = await list("alice");
    const unknown = await add("alice", "NOPE/USDT");
    expect(unknown).toMatchObject({ status: 400, code: 400, msg: "This market does not exist, so it cannot be a favourite." });
    const delisted = await add("alice", "OLD/USDT", "de");
    expect(delisted).toMatchObject({ status: 400, msg: "Diesen Markt gibt es nicht, daher kann er kein Favorit sein." });
    const reversed = await add("alice", "USDT/BTC");
    expect(reversed.status).toBe(400);
    expect(await list("alice")).toEqual(before);
  });

  it("refuses malformed coins with a 400 naming the field", async () => {
    for (const [endpoint, pair] of [
      [endpoints.addOptional, "btc/USDT"],
      [endpoints.addOptional, "BTC_USDT/X"],
      [endpoints.addOptional, "B TC/USDT"],
      [endpoints.addOptional, `${"A".repeat(21)}/USDT`],
      [endpoints.cancelOptional, "BTC/usdt"],
    ] as const) {
      const res = await call("alice", endpoint, coins(pair));
      expect(res.status, pair).toBe(400);
      expect(res.msg, pair).toMatch(/Invalid path: (base|quote)/);
      expect(res.reason, pair).toBe("VALIDATION");
    }
  });

  it("leaves a symbol out of the list once it is delisted", async () => {
    await add("alice", "SOL/USDT");
    expect(await list("alice")).toContain("SOL/USDT");
    await sql`update market_symbol set enabled = false where symbol_name = 'SOL/USDT'`.execute(store.db);
    expect(await list("alice")).not.toContain("SOL/USDT");
    await sql`update market_symbol set enabled = true where symbol_name = 'SOL/USDT'`.execute(store.db);
  });

  it.each(Object.entries(favouriteEndpoints))("%s answers 401 without a valid token", async (_name, endpoint) => {
    const input = { params: { base: "BTC", quote: "USDT" } };
    expect((await client.callUnchecked(endpoint, input, { lang: "en" })).status).toBe(401);
    expect((await client.callUnchecked(endpoint, input, { token: "not-a-real-token-not-a-real-token" })).status).toBe(401);
  });

  const garbage: unknown[] = [undefined, null, "", 42, [], {}, "x".repeat(5_000), "\u0000", "../..", "%00"];
  it.each(Object.entries(favouriteEndpoints))("%s never answers 5xx to malformed input", async (_name, endpoint) => {
    for (const value of garbage) {
      const text = String(value ?? "x").slice(0, 500);
      const res = await client.send(
        endpoint,
        {
          params: { base: text, quote: text },
          query: { a: text },
          body: endpoint.method === "POST" ? (value === undefined ? "{bad" : JSON.stringify(value)) : undefined,
        },
        { token: tokens.alice, headers: { "content-type": "application/json" } },
      );
      expect(res.statusCode, `${endpoint.path} ${JSON.stringify(value)?.slice(0, 30)}`).toBeLessThan(500);
    }
  });
});
