import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { favouriteEndpoints } from "../../protocol/endpoints/favourites";
import { buildApp } from "../app";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

const API = "/api/mjkj-web";

describe.each(testStoreKinds())("favourites API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let clock = Date.parse("2025-01-01T00:00:00Z");
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`
      insert into market_symbol (symbol_name, coin_symbol, quote_symbol, enabled) values
        ('BTC/USDT', 'BTC', 'USDT', true), ('ETH/USDT', 'ETH', 'USDT', true),
        ('SOL/USDT', 'SOL', 'USDT', true), ('OLD/USDT', 'OLD', 'USDT', false)
    `.execute(store.db);
    app = await buildApp({ store, apiHead: "mjkj-web", services: createServices({ devMailbox: true, siteName: async () => "Meridian", now: () => clock, adminToken: TEST_ADMIN_TOKEN }) });
    await app.ready();
    for (const name of ["alice", "bob"]) {
      const email = `${name}-fav-${kind}@example.com`;
      tokens[name] = (await registerAndLogIn(app, email, `device-${name}`)).token;
    }
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const as = (name: string) => ({ "blade-auth": `bearer ${tokens[name]}` });
  const call = async (name: string | null, method: "GET" | "POST", path: string, lang = "en") => {
    clock += 1_000; // each change at its own time, so "oldest first" is observable
    const res = await app.inject({ method, url: `${API}/coin/quotes/${path}`, headers: { ...(name ? as(name) : {}), lang } });
    return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: string[] | null }) };
  };
  const list = (name: string) => call(name, "GET", "getOptional").then((r) => r.data);

  it("adds, lists oldest first, ignores a second add, and cancels", async () => {
    expect(await list("alice")).toEqual([]);
    expect((await call("alice", "POST", "addOptional/ETH/USDT")).data).toEqual(["ETH/USDT"]);
    expect((await call("alice", "POST", "addOptional/BTC/USDT")).data).toEqual(["ETH/USDT", "BTC/USDT"]);
    const again = await call("alice", "POST", "addOptional/ETH/USDT");
    expect(again).toMatchObject({ code: 200, data: ["ETH/USDT", "BTC/USDT"] });
    expect(await list("alice")).toEqual(["ETH/USDT", "BTC/USDT"]);

    expect((await call("alice", "POST", "cancelOptional/ETH/USDT")).data).toEqual(["BTC/USDT"]);
    // Cancelling what is not a favourite is harmless too.
    expect(await call("alice", "POST", "cancelOptional/ETH/USDT")).toMatchObject({ code: 200, data: ["BTC/USDT"] });
    expect(await call("alice", "POST", "cancelOptional/SOL/USDT")).toMatchObject({ code: 200, data: ["BTC/USDT"] });
    expect(await list("alice")).toEqual(["BTC/USDT"]);
  });

  it("keeps each member's favourites to themselves", async () => {
    await call("bob", "POST", "addOptional/SOL/USDT");
    expect(await list("bob")).toEqual(["SOL/USDT"]);
    expect(await list("alice")).not.toContain("SOL/USDT");
    // Bob cancelling Alice's favourite only touches Bob's list.
    await call("bob", "POST", "cancelOptional/BTC/USDT");
    expect(await list("alice")).toContain("BTC/USDT");
  });

  it("refuses an unknown or delisted symbol with a clear, localized 400 and stores nothing", async () => {
    const before = await list("alice");
    const unknown = await call("alice", "POST", "addOptional/NOPE/USDT");
    expect(unknown).toMatchObject({ status: 400, code: 400, msg: "This market does not exist, so it cannot be a favourite." });
    const delisted = await call("alice", "POST", "addOptional/OLD/USDT", "de");
    expect(delisted).toMatchObject({ status: 400, msg: "Diesen Markt gibt es nicht, daher kann er kein Favorit sein." });
    const reversed = await call("alice", "POST", "addOptional/USDT/BTC");
    expect(reversed.status).toBe(400);
    expect(await list("alice")).toEqual(before);
  });

  it("refuses malformed coins with a 400 naming the field", async () => {
    for (const path of ["addOptional/btc/USDT", "addOptional/BTC_USDT/X", "addOptional/B%20TC/USDT", `addOptional/${"A".repeat(21)}/USDT`, "cancelOptional/BTC/usdt"]) {
      const res = await call("alice", "POST", path);
      expect(res.status, path).toBe(400);
      expect(res.msg, path).toMatch(/Invalid path: (a|b)/);
    }
  });

  it("leaves a symbol out of the list once it is delisted", async () => {
    await call("alice", "POST", "addOptional/SOL/USDT");
    expect(await list("alice")).toContain("SOL/USDT");
    await sql`update market_symbol set enabled = false where symbol_name = 'SOL/USDT'`.execute(store.db);
    expect(await list("alice")).not.toContain("SOL/USDT");
    await sql`update market_symbol set enabled = true where symbol_name = 'SOL/USDT'`.execute(store.db);
  });

  it.each(Object.entries(favouriteEndpoints))("%s answers 401 without a valid token", async (_name, endpoint) => {
    const path = endpoint.path.replace("coin/quotes/", "").replace(":a", "BTC").replace(":b", "USDT");
    expect((await call(null, endpoint.method, path)).status).toBe(401);
    const res = await app.inject({ method: endpoint.method, url: `${API}/coin/quotes/${path}`, headers: { "blade-auth": "bearer not-a-real-token-not-a-real-token" } });
    expect(res.statusCode).toBe(401);
  });

  const garbage: unknown[] = [undefined, null, "", 42, [], {}, "x".repeat(5_000), "\u0000", "../..", "%00"];
  it.each(Object.entries(favouriteEndpoints))("%s never answers 5xx to malformed input", async (_name, endpoint) => {
    for (const value of garbage) {
      const text = encodeURIComponent(String(value ?? "x").slice(0, 500));
      const res = await app.inject({
        method: endpoint.method,
        url: `${API}/${endpoint.path.replace(/:(\w+)/g, text)}?a=${text}`,
        headers: { ...as("alice"), "content-type": "application/json" },
        payload: endpoint.method === "POST" ? (value === undefined ? "{bad" : JSON.stringify(value)) : undefined,
      });
      expect(res.statusCode, `${endpoint.path} ${JSON.stringify(value)?.slice(0, 30)}`).toBeLessThan(500);
    }
  });
});
