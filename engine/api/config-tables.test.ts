import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGE_CODES } from "../../protocol/languages";
import { parseSiteConfig } from "../../protocol/site-config";
import { loadVariant } from "../../variants/index";
import { buildApp } from "../app";
import { seedConfiguration } from "../store/seed/seed";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";

const API = "/api/mjkj-web";

describe.each(testStoreKinds())("configuration API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;

  beforeAll(async () => {
    store = await openTestStore(kind);
    app = await buildApp({ store, apiHead: "mjkj-web" });
    // A route that fails unexpectedly, to prove a stack trace never reaches a client.
    app.get("/test/boom", async () => {
      throw new Error("secret detail at /srv/engine/ledger.ts:42");
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const get = async (url: string) => {
    const res = await app.inject({ method: "GET", url });
    return { status: res.statusCode, body: res.json() as { code: number; success: boolean; msg: string; data: any } };
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
      const { status, body } = await get(`${API}/cgform-api/getData/${table}?pageSize=-521`);
      expect(status, table).toBe(200);
      expect(body.success).toBe(true);
      expect(body.data.total).toBe(body.data.records.length);
      check(body.data.records);
    }
  });

  it("pages: id desc by default, pageNo/pageSize, column and order", async () => {
    const first = (await get(`${API}/cgform-api/getData/area_code?pageSize=5`)).body.data;
    expect(first.records).toHaveLength(5);
    expect(first.size).toBe(5);
    expect(first.current).toBe(1);
    expect(first.pages).toBe(Math.ceil(first.total / 5));
    const ids = first.records.map((r: any) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const second = (await get(`${API}/cgform-api/getData/area_code?pageSize=5&pageNo=2`)).body.data;
    expect(second.records[0].id).toBeLessThan(ids[4]);

    const byName = (await get(`${API}/cgform-api/getData/area_code?pageSize=3&column=country_name&order=asc`)).body.data;
    const names = byName.records.map((r: any) => r.country_name);
    expect(names).toEqual([...names].sort());

    const defaultSize = (await get(`${API}/cgform-api/getData/area_code`)).body.data;
    expect(defaultSize.records).toHaveLength(10);
  });

  it("pageSize -521 returns every row on one page", async () => {
    const all = (await get(`${API}/cgform-api/getData/area_code?pageSize=-521`)).body.data;
    expect(all.records.length).toBe(all.total);
    expect(all.total).toBeGreaterThan(10);
    expect(all.pages).toBe(1);
  });

  it("filters by column value", async () => {
    const sides = (await get(`${API}/cgform-api/getData/dict_item?pageSize=-521&dict_code=order_side`)).body.data;
    expect(sides.records.map((r: any) => r.item_text).sort()).toEqual(["Buy", "Sell"]);
    const children = (await get(`${API}/cgform-api/getData/nav_item?pageSize=-521&nav_show=0`)).body.data;
    expect(children.records.map((r: any) => r.nav_code)).toEqual(["borrowings"]);
  });

  it.each([
    ["cgform-api/getData/area_code?pageSize=abc", "pageSize"],
    ["cgform-api/getData/area_code?pageSize=0", "pageSize"],
    ["cgform-api/getData/area_code?pageSize=501", "pageSize"],
    ["cgform-api/getData/area_code?pageNo=-1", "pageNo"],
    ["cgform-api/getData/area_code?pageNo=1&pageNo=2", "pageNo"],
    ["cgform-api/getData/area_code?order=sideways", "order"],
    ["cgform-api/getData/area_code?column=password", "column"],
    ["cgform-api/getData/area_code?secret=1", "secret"],
    ["cgform-api/getData/members", "tableId"],
    ["cgform-api/detailData/area_code/abc", "id"],
    ["cgform-api/detailData/area_code/0", "id"],
    ["coin/open/lang/xx", "lang"],
    ["coin/open/client/version", "clientType"],
    ["coin/open/client/version?clientType=windows", "clientType"],
    ["sys/sys/dict/getDictItems/DROP%20TABLE", "dict"],
    ["coin/open/market/initData?type=9", "type"],
  ])("GET %s answers 400 naming %s", async (path, field) => {
    const { status, body } = await get(`${API}/${path}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 400, success: false, data: null });
    expect(body.msg).toContain(field);
  });

  it("answers a 404 envelope for an unknown path or record", async () => {
    for (const path of [`${API}/no/such/thing`, "/nope", `${API}/cgform-api/detailData/area_code/99999`]) {
      const { status, body } = await get(path);
      expect(status, path).toBe(404);
      expect(body).toMatchObject({ code: 404, success: false, data: null });
    }
  });

  it("reads one record with detailData", async () => {
    const { body } = await get(`${API}/cgform-api/detailData/currency/1`);
    expect(body.data).toMatchObject({ id: 1, exchange_value: "usd" });
  });

  it("serves dictionaries, language entries, rates, area codes and client versions", async () => {
    expect((await get(`${API}/sys/sys/dict/getDictItems/order_side`)).body.data).toEqual([
      { value: "1", text: "Buy", title: "dict.order_side.1" },
      { value: "2", text: "Sell", title: "dict.order_side.2" },
    ]);
    expect((await get(`${API}/sys/sys/dict/getDictItems/no_such_dict`)).body.data).toEqual([]);
    for (const lang of LANGUAGE_CODES) {
      const entries = (await get(`${API}/coin/open/lang/${lang}`)).body.data;
      expect(entries.map((e: any) => e.label).sort(), lang).toEqual(["home.hero.subtitle", "home.hero.title"]);
      expect(entries.every((e: any) => e.value === lang)).toBe(true);
    }
    const rates = (await get(`${API}/open/getCoinRate`)).body.data;
    expect(rates[0]).toMatchObject({ exchange_value: "usd" });
    expect(rates.find((r: any) => r.exchange_value === "eur").rate).toMatch(/^0\.92/);
    const areas = (await get(`${API}/coin/open/get/phone/areaCode`)).body.data;
    expect(areas.length).toBeGreaterThanOrEqual(40);
    const android = (await get(`${API}/coin/open/client/version?clientType=android`)).body.data;
    expect(android).toMatchObject({ client_type: "android", version: "3.2.1" });
    expect(android.released_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("reports an empty spot market until symbols are listed", async () => {
    expect((await get(`${API}/coin/open/market/initData?type=0`)).body.data).toEqual([]);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol) values ('BTC/USDT', 'BTC', 'USDT')`.execute(store.db);
    const listed = (await get(`${API}/coin/open/market/initData?type=0`)).body.data;
    expect(listed).toEqual([expect.objectContaining({ symbolName: "BTC/USDT", close: null, contract_type: 0 })]);
    await sql`delete from market_symbol`.execute(store.db);
  });

  it("never leaks a stack trace", async () => {
    const { status, body } = await get("/test/boom");
    expect(status).toBe(500);
    expect(body).toEqual({ code: 500, success: false, msg: "Internal error, please try again later", data: null });
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
    const rows = (await get(`${API}/cgform-api/getData/site_config?pageSize=-521`)).body.data.records;
    const config = parseSiteConfig(rows);
    expect(config.siteName).toBe("Renamed"); // an operator's edit survives
    expect(config).toMatchObject({ defaultLanguage: "de", areaCode: "49", moneySymbol: "€", exchangeRateCurrency: "eur" });
    await seedConfiguration(store.db, loadVariant("default"));
  });
});
