import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { history } from "../sim/kline-backfill";
import { seeded } from "../sim/seeded-random";
import { PERIODS, periodStart } from "../core/market/candles";
import { TicketSigner } from "../realtime/tickets";
import { SpotService } from "../spot/spot-service";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { MarketData } from "./market-data";
import { testAct } from "../testing/operator-act";

describe.each(testStoreKinds())("market data on %s", (kind) => {
  let store: TestStore;
  let spot: SpotService;
  let market: MarketData;
  let clock = Date.parse("2026-11-22T10:00:00Z");
  const pushes: Array<{ topic: string; data: any }> = [];

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    spot = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      now: () => clock,
    });
    market = await MarketData.start({ db: store.db, spot, now: () => clock });
    market.startPublishing((topic, data) => pushes.push({ topic, data }));
    await spot.durable.funds.deposit("1", "USDT", "spot", "1000000", "md-dep-1");
    await spot.durable.funds.deposit("2", "BTC", "spot", "10", "md-dep-2");
  });
  afterAll(async () => {
    market?.stop();
    await spot?.durable.drain();
    await store?.dispose();
  });

  const trade = async (price: string, quantity: string) => {
    await spot.placeOrder("2", { symbol: "BTC/USDT", side: "sell", type: "limit", price, quantity, tif: "GTC" }, null);
    return spot.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "market", quantity, tif: "IOC" }, null);
  };

  it("builds every period's candle from trades, and stores it as a projection of them", async () => {
    await trade("60000", "0.5");
    clock += 20_000;
    await trade("61000", "0.25");
    await spot.durable.drain();
    const rows = await store.db.selectFrom("spot_kline").selectAll().where("period", "=", "1m").execute();
    expect(rows.map((r) => [Number(r.open), Number(r.high), Number(r.low), Number(r.close), Number(r.volume), Number(r.turnover)])).toEqual([
      [60000, 61000, 60000, 61000, 0.75, 45250],
    ]);
    const periods = await store.db.selectFrom("spot_kline").select("period").distinct().execute();
    expect(periods.map((p) => p.period).sort()).toEqual([...PERIODS].sort());
    const week = await market.klines("BTC/USDT", "1w", clock, 10);
    expect(week).toEqual([{ t: periodStart("1w", clock), o: "60000", h: "61000", l: "60000", c: "61000", v: "0.75", a: "45250" }]);
  });

  it("tracks a market an operator lists while the engine runs, from its first order (issue 9)", async () => {
    const listed = await spot.addMarket(
      {
        symbol: "ETH/USDT",
        base: "ETH",
        quote: "USDT",
        priceScale: 2,
        amountScale: 4,
        tickSize: "0.01",
        lotSize: "0.0001",
        minQuantity: "0.001",
        makerFeeBps: 10,
        takerFeeBps: 10,
      },
      testAct(),
    );
    expect(listed.code).toBe("OK");
    expect(market.has("ETH/USDT")).toBe(true);
    expect(market.symbolInfo("ETH/USDT")).toMatchObject({ symbolName: "ETH/USDT", coin_coin_scale: 2, base_coin_scale: 4, minQuantity: "0.001" });
    // The assets' own decimals (balances, fees), beside the market's amount and price decimals.
    const eth = market.symbolInfo("ETH/USDT")!;
    expect(eth.quoteAssetScale).toBe(spot.durable.core.scaleOf("USDT"));
    expect(eth.baseAssetScale).toBe(spot.durable.core.scaleOf("ETH"));
    expect(eth.baseAssetScale).toBeGreaterThanOrEqual(eth.base_coin_scale);
    await spot.durable.funds.deposit("2", "ETH", "spot", "5", "md-dep-eth");
    await spot.placeOrder("2", { symbol: "ETH/USDT", side: "sell", type: "limit", price: "3000", quantity: "1", tif: "GTC" }, null);
    await spot.placeOrder("1", { symbol: "ETH/USDT", side: "buy", type: "market", quantity: "0.5", tif: "IOC" }, null);
    expect(market.depth("ETH/USDT", 5).asks).toEqual([["3000", "0.5"]]);
    expect(market.tickerItem("ETH/USDT")).toMatchObject({ close: "3000", vol: "0.5" });
    expect(market.recentTrades("ETH/USDT").map((t) => t.price)).toEqual(["3000"]);
  });

  it("reports the 24 h ticker, depth with a growing sequence, and recent trades newest first", async () => {
    expect(market.tickerItem("BTC/USDT")).toMatchObject({ close: "61000", high: "61000", low: "60000", vol: "0.75", amount: "45250", zdf: "1.67" });
    const before = market.depth("BTC/USDT", 5);
    await spot.placeOrder("1", { symbol: "BTC/USDT", side: "buy", type: "limit", price: "59000", quantity: "0.1", tif: "GTC" }, null);
    const after = market.depth("BTC/USDT", 5);
    expect(after.seq).toBeGreaterThan(before.seq);
    expect(after.bids[0]).toEqual(["59000", "0.1"]);
    expect(market.recentTrades("BTC/USDT").map((t) => [t.price, t.side])).toEqual([
      ["61000", "buy"],
      ["60000", "buy"],
    ]);
    // A day later nothing traded: the last price stands with no volume.
    clock += 25 * 3_600_000;
    expect(market.tickerItem("BTC/USDT")).toMatchObject({ close: "61000", vol: "0", zdf: "0" });
  });

  it("pushes trades only once committed", async () => {
    pushes.length = 0;
    const placing = trade("62000", "0.1");
    // Applied by the core but not yet committed: nothing may be published yet.
    expect(pushes.filter((p) => p.topic === "trade_BTC_USDT")).toEqual([]);
    await placing;
    const trades = pushes.filter((p) => p.topic === "trade_BTC_USDT");
    const pushed = trades.at(-1)?.data.trades;
    expect(pushed).toEqual([{ id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), price: "62000", quantity: "0.1", side: "buy", time: clock }]);
    // The snapshot names the trade by the same id as the push.
    expect(market.recentTrades("BTC/USDT")[0]).toEqual(pushed[0]);
  });

  it("reloads candles and recent trades after a restart", async () => {
    await spot.durable.drain();
    const again = await MarketData.start({
      db: store.db,
      spot: await SpotService.start({
        db: store.db,
        onFatal: (e) => {
          throw e;
        },
      }),
      now: () => clock,
    });
    expect(await again.klines("BTC/USDT", "1d", clock, 5)).toEqual(await market.klines("BTC/USDT", "1d", clock, 5));
    expect(again.recentTrades("BTC/USDT").map((t) => t.price)).toEqual(["62000", "61000", "60000"]);
    // Trade ids survive the restart (read back from the stored rows) and are distinct.
    const ids = market.recentTrades("BTC/USDT").map((t) => t.id);
    expect(again.recentTrades("BTC/USDT").map((t) => t.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // The book's sequence keeps growing across the restart (a browser keeps the highest it saw).
    expect(again.depth("BTC/USDT", 5).seq).toBeGreaterThan(market.depth("BTC/USDT", 5).seq);
  });

  it("rebuilds and stores the candles of an install whose trades predate the candle table", async () => {
    await spot.durable.drain();
    const stored = async () => (await sql<{ n: number }>`select count(*)::int as n from spot_kline where symbol = 'BTC/USDT'`.execute(store.db)).rows[0]!.n;
    const before = await stored();
    await sql`delete from spot_kline where symbol = 'BTC/USDT'`.execute(store.db);
    const again = await MarketData.start({
      db: store.db,
      spot: await SpotService.start({
        db: store.db,
        onFatal: (e) => {
          throw e;
        },
      }),
      now: () => clock,
    });
    expect(await again.klines("BTC/USDT", "1d", clock, 5)).toEqual(await market.klines("BTC/USDT", "1d", clock, 5));
    expect(await again.klines("BTC/USDT", "1m", clock, 50)).toEqual(await market.klines("BTC/USDT", "1m", clock, 50));
    expect(await stored()).toBe(before);
  });
});

describe("demo history", () => {
  it("draws every period, ends at the start price, and every candle is well-formed", () => {
    const now = Date.parse("2026-11-22T10:07:00Z");
    const series = history({
      now,
      end: 6_400_000n,
      volatilityPerDay: 0.018,
      priceScale: 2,
      amountScale: 6,
      valueFactor: 1n,
      typicalQuantity: 0.005,
      random: seeded(7),
    });
    for (const period of PERIODS) {
      const candles = series[period];
      expect(candles.length, period).toBeGreaterThanOrEqual(30);
      for (const c of candles) {
        expect(c.high >= c.open && c.high >= c.close && c.low <= c.open && c.low <= c.close && c.low > 0n, `${period} ${c.time}`).toBe(true);
      }
      // Strictly increasing open times, on period boundaries.
      for (let i = 1; i < candles.length; i++) expect(candles[i]!.time).toBeGreaterThan(candles[i - 1]!.time);
      expect(candles.every((c) => periodStart(period, c.time) === c.time)).toBe(true);
      expect(candles.at(-1)!.close, period).toBe(6_400_000n);
    }
  });
});

describe("private topic tickets", () => {
  it("names the member they were issued to until they expire; a forged or altered one names nobody", () => {
    const signer = new TicketSigner("a-secret-of-at-least-24-characters");
    const { ticket, expiresAt } = signer.issue("42", 1_000);
    expect(signer.verify(ticket, 1_000)).toBe("42");
    expect(signer.verify(ticket, expiresAt + 1)).toBeNull();
    expect(signer.verify(ticket.replace(/^42\./, "43."), 1_000)).toBeNull();
    expect(new TicketSigner("another-secret-of-24-characters!").verify(ticket, 1_000)).toBeNull();
    expect(signer.verify({ ticket }, 1_000)).toBeNull();
  });
});
