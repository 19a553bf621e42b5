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

/**
 * Public market reads are answered from kept JSON while a market's version stays (issue 13): the
 * same bytes and entity tag until a trade, a book change, a halt or the next minute, and never the
 * kept answer after one of those.
 */
describe.each(testStoreKinds())("kept market answers on %s", (kind) => {
  let store: TestStore;
  let spot: SpotService;
  let marketData: MarketData;
  let app: FastifyInstance;
  let client: ApiClient;

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 4, 0.01, 0.0001, 0.0001)`.execute(store.db);
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
    await spot.durable.funds.deposit("1", "USDT", "spot", "1000000", `answers-usdt-${kind}`);
    await spot.durable.funds.deposit("2", "BTC", "spot", "10", `answers-btc-${kind}`);
  });
  afterAll(async () => {
    await app?.close();
    marketData?.stop();
    await spot?.durable.drain();
    await store?.dispose();
  });

  const get = (path: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url: `/api/mjkj-web/${path}`, headers });
  const goods = () => get("coin/open/getSpotGoods?symbol=BTC_USDT");
  const tickers = () => get("coin/open/market/initData");
  const sell = (price: string, quantity: string) =>
    spot.placeOrder("2", { symbol: "BTC/USDT", side: "sell", type: "limit", price, quantity, tif: "GTC" }, null);
  const buy = (quantity: string) => spot.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "market", quantity, tif: "IOC" }, null);

  it("sends the same bytes while nothing changed, and the new state after a book change or a trade", async () => {
    await sell("60000", "1");
    const first = await goods();
    expect(first.statusCode).toBe(200);
    const again = await goods();
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((await goods().then(() => get("coin/open/getSpotGoods?symbol=BTC_USDT", { "if-none-match": first.headers.etag as string }))).statusCode).toBe(304);

    // A new resting order: the book changed, the kept answer is not sent again.
    await sell("61000", "2");
    const deeper = (await goods()).json().data;
    expect(deeper.depth.asks).toEqual([
      ["60000", "1"],
      ["61000", "2"],
    ]);

    // A trade: book, trades and ticker all move, in both reads.
    const before = (await tickers()).json().data[0];
    await buy("0.5");
    const after = (await goods()).json().data;
    expect(after.depth.asks[0]).toEqual(["60000", "0.5"]);
    expect(after.trades[0]).toMatchObject({ price: "60000", quantity: "0.5" });
    const ticker = (await tickers()).json().data[0];
    expect(ticker.close).toBe("60000");
    expect(ticker.vol).not.toBe(before.vol);
    const candles = (await get("coin/open/get/kline/history?symbol=BTC_USDT&period=1m")).json().data;
    expect(candles.at(-1)).toMatchObject({ c: "60000" });
    // The console's markets page reads the same ticker: last price and base volume of the last 24 h.
    const [listed] = await client.data(endpoints.opsMarkets, {}, { admin: TEST_ADMIN_TOKEN });
    expect(listed).toMatchObject({ symbol: "BTC/USDT", lastPrice: "60000", volume24h: "0.5", tickSize: "0.01", lotSize: "0.0001" });
  });

  it("shows a halt and a rule change at once, and refuses an unknown symbol without keeping anything", async () => {
    const open = (await get("coin/open/getSpotSymbols")).json().data[0];
    expect(open.halted).toBe(false);
    const halted = await client.call(endpoints.adminMarketHalt, { body: { symbol: "BTC_USDT", halted: true } }, { admin: TEST_ADMIN_TOKEN });
    expect(halted.code).toBe(200);
    expect((await goods()).json().data.symbol.halted).toBe(true);
    await client.call(endpoints.adminMarketHalt, { body: { symbol: "BTC_USDT", halted: false } }, { admin: TEST_ADMIN_TOKEN });
    expect((await goods()).json().data.symbol.halted).toBe(false);
    // A rule change (fees, minimum) shows at once too.
    const updated = await client.call(endpoints.adminMarketUpdate, { body: { symbol: "BTC_USDT", makerFeeBps: 7 } }, { admin: TEST_ADMIN_TOKEN });
    expect(updated.code).toBe(200);
    expect((await goods()).json().data.symbol.makerFee).toBe("0.07");
    const unknown = await get("coin/open/getSpotGoods?symbol=NOPE_USDT");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.headers.etag).toBeUndefined();
  });
});
