import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../api/context";
import { buildApp } from "../app";
import { TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { ConfigVersion } from "./config-version";
import { PublicAnswers } from "./public-answers";

/**
 * The configuration tables are answered from memory until they change (decision 035): a change by
 * any writer (here: plain SQL, as an operator would) is heard once it commits, and from then on
 * every answer has it.
 */
describe.each(testStoreKinds())("public configuration answers on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = await openTestStore(kind);
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      services: createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url: `/api/mjkj-web/${url}`, headers });
  const rateOf = async (code: string) => (await get("open/getCoinRate")).json().data.find((c: { exchange_value: string }) => c.exchange_value === code)?.rate;

  it("answers a repeated request from memory, with an entity tag and 304 for a client that has it", async () => {
    const first = await get("cgform-api/getData/area_code?pageSize=10");
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("no-cache");
    // The table is out of the database's reach (a rename fires no row trigger): only memory can answer.
    await sql`alter table area_code rename to area_code_away`.execute(store.db);
    try {
      const again = await get("cgform-api/getData/area_code?pageSize=10");
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(again.headers.etag).toBe(etag);
      const unchanged = await get("cgform-api/getData/area_code?pageSize=10", { "if-none-match": etag });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.body).toBe("");
    } finally {
      await sql`alter table area_code_away rename to area_code`.execute(store.db);
    }
  });

  it("has an operator's change from the moment it is heard, and keeps it", async () => {
    const before = await rateOf("eur");
    expect(before).toBeDefined();
    await sql`update currency set rate = 0.5 where exchange_value = 'eur'`.execute(store.db);
    await expect.poll(() => rateOf("eur"), { timeout: 3_000, interval: 20 }).toBe("0.500000000000");
    for (let i = 0; i < 5; i++) expect(await rateOf("eur")).toBe("0.500000000000");
    await sql`update currency set rate = ${before} where exchange_value = 'eur'`.execute(store.db);
    await expect.poll(() => rateOf("eur"), { timeout: 3_000, interval: 20 }).toBe(before);
  });

  it("keeps no answer computed while a change arrived, and none of a refusal", async () => {
    const version = await ConfigVersion.start(store, 60_000);
    try {
      const answers = new PublicAnswers(version);
      const generation = answers.begin();
      await sql`update site_config set config_value = config_value where config_key = 'siteName'`.execute(store.db);
      await expect.poll(() => version.current, { timeout: 3_000, interval: 10 }).toBeGreaterThan(generation);
      answers.keep("/late", "{}", generation);
      expect(answers.get("/late")).toBeUndefined();
      answers.keep("/fresh", "{}", answers.begin());
      expect(answers.get("/fresh")?.body).toBe("{}");
    } finally {
      await version.stop();
    }
    const refused = await get("cgform-api/getData/no_such_table");
    expect(refused.statusCode).toBe(400);
    expect(refused.headers.etag).toBeUndefined();
  });

  it("catches a change whose notification was lost, by reading the counter", async () => {
    const version = await ConfigVersion.start(store, 60_000);
    try {
      const heard = version.current;
      // The counter moves without a notification (as when the listening connection dropped).
      await sql`update config_version set version = version + 1 where id = 1`.execute(store.db);
      expect(version.current).toBe(heard);
      await version.check();
      expect(version.current).toBe(heard + 1);
    } finally {
      await version.stop();
    }
  });
});
