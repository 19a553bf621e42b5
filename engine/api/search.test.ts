import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { MarketData } from "../market/market-data";
import { SpotService } from "../spot/spot-service";
import { ApiClient } from "../testing/api-client";
import { TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";
import { testAct } from "../testing/operator-act";

/** Ten markets and the quote volume each trades (price × 1), so the hot list's order is known. */
const MARKETS: Array<[base: string, price: string]> = [
  ["BTC", "60000"],
  ["ETC", "9000"],
  ["ETH", "3000"],
  ["BCH", "400"],
  ["SOL", "150"],
  ["LTC", "80"],
  ["ADA", "40"],
  ["XRP", "20"],
  ["TRX", "10"],
  ["DOGE", "5"],
];

describe.each(testStoreKinds())("market search API on %s", (kind) => {
  let store: TestStore;
  let spot: SpotService;
  let marketData: MarketData;
  let app: FastifyInstance;
  let client: ApiClient;

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into asset (code, scale, name) values ('ETC', 8, 'Ethereum Classic'), ('BCH', 8, 'Bitcoin Cash'), ('LTC', 8, 'Litecoin'), ('ADA', 8, 'Cardano')`.execute(
      store.db,
    );
    for (const [base] of MARKETS)
      await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
                values (${`${base}/USDT`}, ${base}, 'USDT', 2, 4, 0.01, 0.0001, 0.0001)`.execute(store.db);
    // A market without a trade: last of every list, its ticker empty.
    await sql`insert into asset (code, scale, name) values ('NEW', 8, 'Newcoin')`.execute(store.db);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('NEW/USDT', 'NEW', 'USDT', 2, 4, 0.01, 0.0001, 0.0001)`.execute(store.db);
    spot = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
    });
    marketData = await MarketData.start({ db: store.db, spot });
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot,
      marketData,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    await spot.durable.funds.deposit("1", "USDT", "spot", "1000000", `search-usdt-${kind}`);
    for (const [base, price] of MARKETS) {
      await spot.durable.funds.deposit("2", base, "spot", "1", `search-${base}-${kind}`);
      await spot.placeOrder("2", { symbol: `${base}/USDT`, side: "sell", type: "limit", price, quantity: "1", tif: "GTC" }, null);
      await spot.placeOrder("1", { symbol: `${base}/USDT`, side: "buy", type: "market", quantity: "1", tif: "IOC" }, null);
    }
  });
  afterAll(async () => {
    await app?.close();
    marketData?.stop();
    await spot?.durable.drain();
    await store?.dispose();
  });

  const search = (q?: string) => client.data(endpoints.marketSearch, { query: { q } });
  const symbols = (rows: Array<{ symbol: string }>) => rows.map((r) => r.symbol);

  it("answers the 8 markets of the highest 24 h quote volume without text, to visitors", async () => {
    const answer = await search();
    expect(answer).toMatchObject({ q: "", spot: [], contract: [], contractsListed: false, suggestions: [] });
    expect(symbols(answer.hot)).toEqual(MARKETS.slice(0, 8).map(([base]) => `${base}/USDT`));
    expect(answer.hot[0]).toEqual({
      symbol: "BTC/USDT",
      base: "BTC",
      quote: "USDT",
      name: "Bitcoin",
      contract_type: 0,
      price: "60000",
      change: "0",
      volume: "60000",
    });
    // Blank text is no text.
    expect(symbols((await search("   ")).hot)).toHaveLength(8);
  });

  it("finds the text case-insensitively inside the coin, the symbol or the coin's name", async () => {
    expect(symbols((await search("et")).spot)).toEqual(["ETC/USDT", "ETH/USDT"]);
    expect(symbols((await search("Et")).spot)).toEqual(["ETC/USDT", "ETH/USDT"]);
    expect(symbols((await search("bit")).spot)).toEqual(["BTC/USDT", "BCH/USDT"]);
    expect(symbols((await search("bitcoin cash")).spot)).toEqual(["BCH/USDT"]);
    expect(symbols((await search("oge")).spot)).toEqual(["DOGE/USDT"]);
    expect(symbols((await search("newc")).spot)).toEqual(["NEW/USDT"]);
  });

  it("ranks the exact coin first, then prefixes, then the rest, each by 24 h volume", async () => {
    // ETC trades more, but ETH is the coin typed; ETC follows by its name, Ethereum Classic.
    expect(symbols((await search("eth")).spot)).toEqual(["ETH/USDT", "ETC/USDT"]);
    expect(symbols((await search("eth_usdt")).spot)).toEqual(["ETH/USDT"]);
    expect(symbols((await search("ETH/USDT")).spot)).toEqual(["ETH/USDT"]);
    // "c" starts only Cardano's name (ADA, little volume); it is inside BTC's Bitcoin, ETC, BCH and more.
    const c = symbols((await search("c")).spot);
    expect(c.slice(0, 1)).toEqual(["ADA/USDT"]);
    expect(c).toContain("BTC/USDT");
    // Every market's symbol holds USDT: all of them, by volume, the untraded one last.
    const usdt = symbols((await search("usdt")).spot);
    expect(usdt).toEqual([...MARKETS.map(([base]) => `${base}/USDT`), "NEW/USDT"]);
  });

  it("suggests the 4 hottest markets when nothing matches; an exchange without contracts has an empty contract list", async () => {
    const answer = await search("zzzz");
    expect(answer).toMatchObject({ q: "zzzz", spot: [], contract: [], contractsListed: false, hot: [] });
    expect(symbols(answer.suggestions)).toEqual(["BTC/USDT", "ETC/USDT", "ETH/USDT", "BCH/USDT"]);
    expect((await search("eth")).suggestions).toEqual([]);
  });

  it("refuses a text that is too long or holds other characters with 400 naming q, in the reader's language", async () => {
    for (const q of ["x".repeat(21), "<script>", "eth%", "a.b", "bitcoin\u00e9"]) {
      const answer = await client.callUnchecked(endpoints.marketSearch, { query: { q } });
      expect(answer, q).toMatchObject({ code: 400, success: false });
      expect(answer.msg, q).toContain("q:");
    }
    const english = await client.callUnchecked(endpoints.marketSearch, { query: { q: "<b>" } });
    expect(english.msg).toBe("Invalid query: q: must be at most 20 letters, digits, spaces or the symbols / _ -");
    const german = await client.callUnchecked(endpoints.marketSearch, { query: { q: "<b>" } }, { lang: "de" });
    expect(german.msg).toContain("höchstens 20 Buchstaben");
    expect(await client.callUnchecked(endpoints.marketSearch, { query: { q: ["a", "b"] } })).toMatchObject({ code: 400 });
    expect(await client.callUnchecked(endpoints.marketSearch, { query: { q: "a\u0000" } })).toMatchObject({ code: 400 });
    // 20 characters are fine.
    expect((await search("x".repeat(20))).suggestions).toHaveLength(4);
  });

  it("knows the name of a coin an operator lists while the engine runs", async () => {
    const listed = await spot.addMarket(
      {
        symbol: "PEPE/USDT",
        base: "PEPE",
        quote: "USDT",
        priceScale: 8,
        amountScale: 0,
        tickSize: "0.00000001",
        lotSize: "1",
        minQuantity: "1",
        makerFeeBps: 10,
        takerFeeBps: 10,
        newBase: { scale: 8, name: "Pepe the Frog" },
      },
      testAct(),
    );
    expect(listed.code).toBe("OK");
    // The tickers are read again at most every second: wait that out rather than reach inside.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(symbols((await search("frog")).spot)).toEqual(["PEPE/USDT"]);
  });
});
