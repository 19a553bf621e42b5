import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigTableId } from "../../protocol/config-tables";
import { endpoints } from "../../protocol/endpoints";
import { LANGUAGE_CODES } from "../../protocol/languages";
import { parseSiteConfig } from "../../protocol/site-config";
import { loadVariant } from "../../variants/index";
import { buildApp } from "../app";
import { seedConfiguration } from "../store/seed/seed";
import { ApiClient, type UncheckedInput } from "../testing/api-client";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";

describe.each(testStoreKinds())("configuration API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let client: ApiClient;

  beforeAll(async () => {
    store = await openTestStore(kind);
    app = await buildApp({ store, apiHead: "mjkj-web" });
    // A route that fails unexpectedly, to prove a stack trace never reaches a client.
    app.get("/test/boom", async () => {
      throw new Error("secret detail at /srv/engine/ledger.ts:42");
    });
    await app.ready();
    client = new ApiClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  /** Configuration tables' records are loosely typed (one shape per table): read them as such. */
  const page = (tableId: ConfigTableId, query: Record<string, string> = {}) =>
    client.data(endpoints.getData, { params: { tableId }, query }) as Promise<{ records: any[]; total: number; size: number; current: number; pages: number }>;
  /** A path that is not an endpoint at all, for the router's own answers. */
  const getPath = async (url: string) => {
    const res = await app.inject({ method: "GET", url });
    return { status: res.statusCode, body: res.json() as { code: number; success: boolean; msg: string; data: unknown } };
  };

  it("serves every configuration table through getData", async () => {
    const expectations: Record<string, (records: any[]) => void> = {
      nav_item: (r) => expect(r.map((x) => x.nav_code)).toEqual(expect.arrayContaining(["markets", "trade", "spot", "borrowings"])),
      footer_link: (r) => expect(r.length).toBeGreaterThanOrEqual(8),
      sys_language: (r) => expect(r.map((x) => x.value).sort()).toEqual([...LANGUAGE_CODES].sort()),
      lang_entry: (r) => expect(new Set(r.map((x) => x.value)).size).toBe(9),
      currency: (r) => expect(r.find((x) => x.exchange_value === "usd")).toMatchObject({ exchange_code: "$" }),
      site_config: (r) => expect(parseSiteConfig(r).siteName).toBe("Meridian Exchange"),
      dict_item: (r) => expect(r.some((x) => x.dict_code === "kline_period")).toBe(true),
      area_code: (r) => expect(r.find((x) => x.country_code === "DE")).toMatchObject({ dial_code: "49" }),
      client_version: (r) => expect(r.map((x) => x.client_type).sort()).toEqual(["android", "h5", "ios", "pc"]),
      image_address: (r) => expect(r.some((x) => x.img_code === "logo_night")).toBe(true),
    };
    for (const [table, check] of Object.entries(expectations)) {
      const answer = await client.call(endpoints.getData, { params: { tableId: table as ConfigTableId }, query: { pageSize: "-521" } });
      expect(answer.status, table).toBe(200);
      expect(answer.success).toBe(true);
      expect(answer.data!.total).toBe(answer.data!.records.length);
      check(answer.data!.records);
    }
  });

  it("pages: id desc by default, pageNo/pageSize, column and order", async () => {
    const first = await page("area_code", { pageSize: "5" });
    expect(first.records).toHaveLength(5);
    expect(first.size).toBe(5);
    expect(first.current).toBe(1);
    expect(first.pages).toBe(Math.ceil(first.total / 5));
    const ids = first.records.map((r: any) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const second = await page("area_code", { pageSize: "5", pageNo: "2" });
    expect(second.records[0].id).toBeLessThan(ids[4]);

    const byName = await page("area_code", { pageSize: "3", column: "country_name", order: "asc" });
    const names = byName.records.map((r: any) => r.country_name);
    expect(names).toEqual([...names].sort());

    const defaultSize = await page("area_code");
    expect(defaultSize.records).toHaveLength(10);
  });

  it("pageSize -521 returns every row on one page", async () => {
    const all = await page("area_code", { pageSize: "-521" });
    expect(all.records.length).toBe(all.total);
    expect(all.total).toBeGreaterThan(10);
    expect(all.pages).toBe(1);
  });

  it("filters by column value", async () => {
    const sides = await page("dict_item", { pageSize: "-521", dict_code: "order_side" });
    expect(sides.records.map((r: any) => r.item_text).sort()).toEqual(["Buy", "Sell"]);
    const children = await page("nav_item", { pageSize: "-521", nav_show: "0" });
    expect(children.records.map((r: any) => r.nav_code)).toEqual(["borrowings"]);
  });

  const area = (query: UncheckedInput["query"]) => ({ params: { tableId: "area_code" }, query });
  it.each<[string, Parameters<ApiClient["callUnchecked"]>[0], UncheckedInput, string]>([
    ["getData pageSize=abc", endpoints.getData, area({ pageSize: "abc" }), "pageSize"],
    ["getData pageSize=0", endpoints.getData, area({ pageSize: "0" }), "pageSize"],
    ["getData pageSize=501", endpoints.getData, area({ pageSize: "501" }), "pageSize"],
    ["getData pageNo=-1", endpoints.getData, area({ pageNo: "-1" }), "pageNo"],
    ["getData pageNo twice", endpoints.getData, area({ pageNo: ["1", "2"] }), "pageNo"],
    ["getData order=sideways", endpoints.getData, area({ order: "sideways" }), "order"],
    ["getData column=password", endpoints.getData, area({ column: "password" }), "column"],
    ["getData secret=1", endpoints.getData, area({ secret: "1" }), "secret"],
    ["getData of members", endpoints.getData, { params: { tableId: "members" } }, "tableId"],
    ["detailData id abc", endpoints.detailData, { params: { tableId: "area_code", rowId: "abc" } }, "rowId"],
    ["detailData id 0", endpoints.detailData, { params: { tableId: "area_code", rowId: "0" } }, "rowId"],
    ["lang xx", endpoints.languageEntries, { params: { lang: "xx" } }, "lang"],
    ["client version without type", endpoints.clientVersion, {}, "clientType"],
    ["client version windows", endpoints.clientVersion, { query: { clientType: "windows" } }, "clientType"],
    ["dict DROP TABLE", endpoints.dictItems, { params: { dict: "DROP TABLE" } }, "dict"],
    ["initData type=9", endpoints.marketInitData, { query: { type: "9" } }, "type"],
  ])("GET %s answers 400 naming the field", async (_what, endpoint, input, field) => {
    const answer = await client.callUnchecked(endpoint, input);
    expect(answer.status).toBe(400);
    expect(answer).toMatchObject({ code: 400, success: false, data: null });
    expect(answer.msg).toContain(field);
  });

  it("answers a 404 envelope for an unknown path or record", async () => {
    for (const path of ["/api/mjkj-web/no/such/thing", "/nope"]) {
      const { status, body } = await getPath(path);
      expect(status, path).toBe(404);
      expect(body).toMatchObject({ code: 404, success: false, data: null });
    }
    const record = await client.call(endpoints.detailData, { params: { tableId: "area_code", rowId: "99999" } });
    expect(record).toMatchObject({ status: 404, code: 404, success: false, data: null });
  });

  it("reads one record with detailData", async () => {
    expect(await client.data(endpoints.detailData, { params: { tableId: "currency", rowId: "1" } })).toMatchObject({ id: 1, exchange_value: "usd" });
  });

  it("serves dictionaries, language entries, rates, area codes and client versions", async () => {
    expect(await client.data(endpoints.dictItems, { params: { dict: "order_side" } })).toEqual([
      { value: "1", text: "Buy", title: "dict.order_side.1" },
      { value: "2", text: "Sell", title: "dict.order_side.2" },
    ]);
    expect(await client.data(endpoints.dictItems, { params: { dict: "no_such_dict" } })).toEqual([]);
    for (const lang of LANGUAGE_CODES) {
      const entries = await client.data(endpoints.languageEntries, { params: { lang } });
      expect(entries.map((e: any) => e.label).sort(), lang).toEqual(["home.hero.title"]);
      expect(entries.every((e: any) => e.value === lang)).toBe(true);
    }
    const rates = await client.data(endpoints.coinRates);
    expect(rates[0]).toMatchObject({ exchange_value: "usd" });
    expect(rates.find((r) => r.exchange_value === "eur")!.rate).toMatch(/^0\.92/);
    const areas = await client.data(endpoints.areaCodes);
    expect(areas.length).toBeGreaterThanOrEqual(40);
    const android = await client.data(endpoints.clientVersion, { query: { clientType: "android" } });
    expect(android).toMatchObject({ client_type: "android", version: "3.2.1" });
    expect(android.released_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("reports an empty spot market until symbols are listed", async () => {
    expect(await client.data(endpoints.marketInitData, { query: { type: "0" } })).toEqual([]);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol) values ('BTC/USDT', 'BTC', 'USDT')`.execute(store.db);
    // Listed by SQL, as an operator would: heard once the database's notification arrives (decision 035).
    await expect
      .poll(() => client.data(endpoints.marketInitData, { query: { type: "0" } }), { timeout: 3_000, interval: 20 })
      .toEqual([expect.objectContaining({ symbolName: "BTC/USDT", close: null, contract_type: 0 })]);
    await sql`delete from market_symbol`.execute(store.db);
  });

  it("never leaks a stack trace", async () => {
    const { status, body } = await getPath("/test/boom");
    expect(status).toBe(500);
    expect(body).toEqual({ code: 500, success: false, msg: "Internal error, please try again later", data: null, reason: "INTERNAL" });
    expect(JSON.stringify(body)).not.toContain("secret");
  });

  it("answers /healthz", async () => {
    const res = await app.inject({ method: "GET", url: "/healthz" });
    expect(res.json()).toEqual({ status: "ok", store: kind });
  });

  it("seeds once, and re-applies the variant at every start", async () => {
    const count = async () => (await sql<{ n: number }>`select count(*)::int as n from nav_item`.execute(store.db)).rows[0]!.n;
    const before = await count();
    await sql`update site_config set config_value = 'Renamed' where config_key = 'siteName'`.execute(store.db);
    await seedConfiguration(store.db, loadVariant("de"));
    expect(await count()).toBe(before);
    const rows = (await page("site_config", { pageSize: "-521" })).records;
    const config = parseSiteConfig(rows);
    expect(config.siteName).toBe("Renamed"); // an operator's edit survives
    expect(config).toMatchObject({ defaultLanguage: "de", areaCode: "49", moneySymbol: "€", exchangeRateCurrency: "eur" });
    await seedConfiguration(store.db, loadVariant("default"));
  });
});
