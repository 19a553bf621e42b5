import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as contractRoute from "./full-contract.$symbol";
import * as previewRoute from "./full-contract.$symbol_.preview";

/**
 * The contract page (issue 30) against a real engine with the seeded contracts and no price loop:
 * the test moves the index itself. What a member sees (status, redirect, toast, the form kept) and
 * what the engine holds afterwards.
 */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
  expect(await exchange.contracts.tick([["BTC/USDT", "50000"]], Date.now())).toBe("OK");
});
afterAll(() => exchange?.close());

const PAGE = "/exchange/full-contract/BTC_USDT";
const params = { symbol: "BTC_USDT" };
let members = 0;
let keys = 0;
const key = () => `contract-route-key-${++keys}`;

/** A member with `usdt` in the contract account, logged in in a browser. */
async function trader(usdt = "1000") {
  const email = `contract-trader-${++members}@example.com`;
  const uid = await exchange.register(email);
  await exchange.deposit(uid, "USDT", usdt);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  const caller = await exchange.as(browser);
  await exchange.api.data(endpoints.transfer, { query: { from: "2", to: "4", coin: "USDT", amount: usdt, idempotencyKey: key() } }, caller);
  return {
    browser,
    caller,
    positions: () => exchange.api.data(endpoints.myPositions, { params: { type: "1" } }, caller),
    openOrders: async () =>
      (await exchange.api.data(endpoints.contractOrders, { params: { type: "1", scope: "current", pageNo: "1" }, query: {} }, caller)).list,
  };
}

const order = (fields: Record<string, string> = {}) => ({
  intent: "place",
  orderType: "limit",
  direction: "1",
  price: "49000",
  num: "10",
  idempotencyKey: key(),
  ...fields,
});

describe("the contract page", () => {
  it("shows a visitor the contract's market and no member side; an unknown contract is a 404", async () => {
    const browser = new Browser();
    const page = await browser.get(contractRoute.loader, PAGE, params);
    expect(page.status).toBe(200);
    const data = page.data as { goods: { info: { symbolName: string }; state: { markPrice: string } }; account: unknown };
    expect(data.goods.info.symbolName).toBe("BTC/USDT");
    expect(data.goods.state.markPrice).toBe("50000");
    expect(data.account).toBeNull();
    // The chart: of the last price in 15 minutes unless the address asks for another; the mark's candle is the tick's price.
    expect(page.data).toMatchObject({ chart: { price: "last", period: "15m" } });
    const mark = await browser.get(contractRoute.loader, `${PAGE}?price=mark&period=1h`, params);
    expect(mark.data).toMatchObject({ chart: { price: "mark", period: "1h" } });
    expect((mark.data as { chart: { candles: Array<{ c: string; v: string }> } }).chart.candles.at(-1)).toMatchObject({ c: "50000", v: "0" });
    const odd = await browser.get(contractRoute.loader, `${PAGE}?price=index&period=2m`, params);
    expect(odd.data).toMatchObject({ chart: { price: "last", period: "15m" } });
    expect((await browser.get(contractRoute.loader, "/exchange/full-contract/DOGE_USDT", { symbol: "DOGE_USDT" })).status).toBe(404);
    expect((await browser.get(contractRoute.loader, "/exchange/full-contract/nope", { symbol: "nope" })).status).toBe(404);
  });

  it("previews the liquidation prices of an opening order, on the preview button and live, placing nothing", async () => {
    const member = await trader("1000");
    const asked = await member.browser.post(contractRoute.action, PAGE, { ...order({ price: "49000", num: "10" }), direction: "", preview: "1" }, params);
    expect(asked.status).toBe(200);
    const { preview } = asked.data as { preview: { long: { liquidationPrice: string }; short: { liquidationPrice: string } } };
    // At 20x a long from 49,000 is liquidated a little under 5 % lower; a short a little under 5 % higher.
    expect(Number(preview.long.liquidationPrice)).toBeGreaterThan(46_500);
    expect(Number(preview.long.liquidationPrice)).toBeLessThan(49_000);
    expect(Number(preview.short.liquidationPrice)).toBeGreaterThan(49_000);
    expect(Number(preview.short.liquidationPrice)).toBeLessThan(51_500);
    expect(await member.openOrders()).toEqual([]);
    // The same numbers live (the resource route the form loads with JavaScript); a fraction of a contract asks nothing.
    const live = await member.browser.get(previewRoute.loader, `${PAGE}/preview?num=10&price=49000`, params);
    expect(live.data).toEqual({ preview: expect.objectContaining({ long: preview.long, short: preview.short }) });
    expect((await member.browser.get(previewRoute.loader, `${PAGE}/preview?num=1.5`, params)).status).toBe(400);
    expect((await new Browser().get(previewRoute.loader, `${PAGE}/preview?num=10`, params)).data).toEqual({ preview: null });
    // Without a quantity the preview button says what is missing.
    const empty = await member.browser.post(contractRoute.action, PAGE, { ...order({ num: "" }), preview: "1" }, params);
    expect(empty.status).toBe(400);
    expect(empty.data).toMatchObject({ form: "order", result: { error: { num: ["spot.validation.num_required"] } } });
  });

  it("takes a limit's time in force: a post-only that would trade is refused with the reason, a bad one is named; nothing placed", async () => {
    const maker = await trader("5000");
    const taker = await trader("1000");
    expect((await maker.browser.post(contractRoute.action, PAGE, order({ direction: "2", price: "50020", num: "5" }), params)).status).toBe(302);
    const postOnly = await taker.browser.post(contractRoute.action, PAGE, order({ price: "50020", num: "5", tif: "POST_ONLY" }), params);
    expect(postOnly.status).toBe(400);
    expect(JSON.stringify(postOnly.data)).toMatch(/post-only|maker/i);
    const bogus = await taker.browser.post(contractRoute.action, PAGE, order({ price: "50020", num: "5", tif: "GTD" }), params);
    expect(bogus.data).toMatchObject({ form: "order", result: { error: { tif: ["contract_page.validation.tif"] } } });
    expect(await taker.openOrders()).toEqual([]);
    // Fill or kill takes all 5 at once; the maker's ask is gone.
    expect((await taker.browser.post(contractRoute.action, PAGE, order({ price: "50020", num: "5", tif: "FOK" }), params)).status).toBe(302);
    expect(await taker.browser.toast()).toMatchObject({ type: "success", key: "contract_page.placed_filled" });
    expect(await maker.openOrders()).toEqual([]);
  });

  it("opens a position against a resting order, sets leverage, adds margin and closes it, each once", async () => {
    const maker = await trader("5000");
    const taker = await trader("1000");
    // The maker's short rests at 50,010 (placed through the page too).
    const ask = await maker.browser.post(contractRoute.action, PAGE, order({ direction: "2", price: "50010", num: "100" }), params);
    expect(ask.status).toBe(302);
    expect(await maker.browser.toast()).toMatchObject({ type: "success", key: "contract_page.placed_open" });

    // Leverage: 0 and 101 are refused on the form, 10 is set.
    for (const bad of ["0", "101", "2.5"]) {
      const refused = await taker.browser.post(contractRoute.action, PAGE, { intent: "leverage", leverage: bad, idempotencyKey: key() }, params);
      expect(refused.status).toBe(400);
      expect(refused.data).toMatchObject({ form: "leverage", result: { error: { leverage: ["contract_page.validation.leverage"] } } });
    }
    const set = await taker.browser.post(contractRoute.action, PAGE, { intent: "leverage", leverage: "10", idempotencyKey: key() }, params);
    expect(set.status).toBe(302);
    expect(await taker.browser.toast()).toMatchObject({ key: "contract_page.leverage_set", values: { leverage: "10" } });

    // A fraction of a contract is refused with the reason; nothing is placed.
    const fraction = await taker.browser.post(contractRoute.action, PAGE, order({ num: "1.5" }), params);
    expect(fraction.status).toBe(400);
    expect(fraction.data).toMatchObject({ form: "order", result: { error: { num: ["contract_page.validation.num_whole"] } } });
    expect(await taker.openOrders()).toEqual([]);

    // A market buy of 20 fills against the ask; posted twice with one key, it buys once.
    const buy = order({ orderType: "market", price: "", num: "20" });
    for (let i = 0; i < 2; i++) {
      const placed = await taker.browser.post(contractRoute.action, PAGE, buy, params);
      expect(placed.status).toBe(302);
      expect(await taker.browser.toast()).toMatchObject({ key: "contract_page.placed_filled", values: { filled: "20" } });
    }
    const [position] = await taker.positions();
    expect(position).toMatchObject({ symbolName: "BTC/USDT", side: "long", qty: "20", entryPrice: "50010", leverage: 10 });

    // Margin: an amount is needed; 5 USDT is added.
    const empty = await taker.browser.post(
      contractRoute.action,
      PAGE,
      { intent: "margin", symbol: "BTC_USDT", change: "add", amount: "", idempotencyKey: key() },
      params,
    );
    expect(empty.data).toMatchObject({ form: "margin-BTC_USDT", result: { error: { amount: ["contract_page.validation.amount_required"] } } });
    const add = await taker.browser.post(
      contractRoute.action,
      PAGE,
      { intent: "margin", symbol: "BTC_USDT", change: "add", amount: "5", idempotencyKey: key() },
      params,
    );
    expect(add.status).toBe(302);
    expect(await taker.browser.toast()).toMatchObject({ key: "contract_page.margin_added", values: { amount: "5", coin: "USDT" } });
    const [after] = await taker.positions();
    expect(BigInt(after!.margin.replace(".", "")) > BigInt(position!.margin.replace(".", ""))).toBe(true);

    // Closed at market: the maker bids 20 at 49,990 (closing its short), and the taker's close sells into it.
    const bid = await maker.browser.post(contractRoute.action, PAGE, order({ direction: "4", price: "49990", num: "20" }), params);
    expect(bid.status).toBe(302);
    const close = await taker.browser.post(
      contractRoute.action,
      PAGE,
      { intent: "close", symbol: "BTC_USDT", side: "long", qty: "20", idempotencyKey: key() },
      params,
    );
    expect(close.status).toBe(302);
    expect(await taker.browser.toast()).toMatchObject({ key: "contract_page.placed_filled" });
    expect(await taker.positions()).toEqual([]);
  });

  it("places a stop order and a position's take profit and stop loss, each once; refuses what is missing or on the wrong side with the reason", async () => {
    const maker = await trader("5000");
    const member = await trader("1000");
    const stops = async () =>
      (await exchange.api.data(endpoints.contractStops, { params: { type: "1", scope: "current", pageNo: "1" }, query: {} }, member.caller)).list;
    // No trigger price: named on the form; nothing waits.
    const missing = await member.browser.post(contractRoute.action, PAGE, order({ orderType: "stop", price: "" }), params);
    expect(missing.status).toBe(400);
    expect(missing.data).toMatchObject({ form: "order", result: { error: { triggerPrice: ["contract_page.validation.trigger_required"] } } });
    const badSource = await member.browser.post(contractRoute.action, PAGE, order({ orderType: "stop", triggerPrice: "51000", triggerBy: "index" }), params);
    expect(badSource.data).toMatchObject({ result: { error: { triggerBy: ["contract_page.validation.trigger_by"] } } });
    // At the mark it would fire at once: the engine's reason, on the form, and a new key.
    const atMark = await member.browser.post(contractRoute.action, PAGE, order({ orderType: "stop", price: "", triggerPrice: "50000" }), params);
    expect(atMark.status).toBe(400);
    expect(JSON.stringify(atMark.data)).toMatch(/trigger price/);
    expect(await stops()).toEqual([]);
    // A stop limit, posted twice with one key: it waits once.
    const stop = order({ orderType: "stop", price: "51500", triggerPrice: "51000", triggerBy: "last" });
    for (let i = 0; i < 2; i++) {
      expect((await member.browser.post(contractRoute.action, PAGE, stop, params)).status).toBe(302);
      expect(await member.browser.toast()).toMatchObject({ type: "success", key: "contract_page.placed_waiting" });
    }
    expect((await stops()).map((x) => [x.direction, x.type, x.price, x.triggerPrice, x.triggerBy])).toEqual([["1", "limit", "51500", "51000", "last"]]);

    // A position (against the maker's ask), then its take profit and stop loss.
    expect((await maker.browser.post(contractRoute.action, PAGE, order({ direction: "2", price: "50010", num: "5" }), params)).status).toBe(302);
    expect((await member.browser.post(contractRoute.action, PAGE, order({ orderType: "market", price: "", num: "5" }), params)).status).toBe(302);
    const tpsl = (fields: Record<string, string>) =>
      member.browser.post(contractRoute.action, PAGE, { intent: "tpsl", symbol: "BTC_USDT", triggerBy: "mark", idempotencyKey: key(), ...fields }, params);
    expect((await tpsl({})).data).toMatchObject({ form: "tpsl-BTC_USDT", result: { error: { takeProfit: ["contract_page.validation.tpsl_needed"] } } });
    const wrongSide = await tpsl({ takeProfit: "45000" });
    expect(wrongSide.status).toBe(400);
    expect(wrongSide.data).toMatchObject({ form: "tpsl-BTC_USDT" });
    expect(JSON.stringify(wrongSide.data)).toMatch(/profit side/);
    const set = { takeProfit: "55000", stopLoss: "45000", idempotencyKey: key() };
    for (let i = 0; i < 2; i++) {
      expect((await tpsl(set)).status).toBe(302);
      expect(await member.browser.toast()).toMatchObject({ type: "success", key: "contract_page.tpsl_set" });
    }
    const [position] = await member.positions();
    expect(position!.tpsl).toMatchObject({ takeProfit: "55000", stopLoss: "45000", triggerBy: "mark" });
    // The page shows both: the position's and the waiting stop, each cancelled by its own form.
    const page = await member.browser.get(contractRoute.loader, PAGE, params);
    const account = (page.data as { account: { stops: Array<{ stopId: string }>; keys: { positions: Record<string, { tpsl: string }> } } }).account;
    expect(account.stops).toHaveLength(2);
    expect(account.keys.positions["BTC/USDT"]!.tpsl).toMatch(/\w{8}/);
    for (const { stopId } of account.stops)
      expect((await member.browser.post(contractRoute.action, PAGE, { intent: "cancel", orderId: stopId }, params)).status).toBe(302);
    expect(await stops()).toEqual([]);
    expect((await member.positions())[0]!.tpsl).toBeNull();
  });

  it("sets the margin mode before trading, once per key; refuses a change while a position is open, with the reason", async () => {
    const maker = await trader("5000");
    const member = await trader("1000");
    const mode = (value: string) => member.browser.post(contractRoute.action, PAGE, { intent: "mode", mode: value, idempotencyKey: key() }, params);
    expect((await mode("cross")).status).toBe(302);
    expect(await member.browser.toast()).toMatchObject({ type: "success", key: "contract_page.mode_set_cross" });
    expect((await mode("both")).status).toBe(302);
    expect(await member.browser.toast()).toMatchObject({ type: "error", key: "errors.unknown" });
    const page = await member.browser.get(contractRoute.loader, PAGE, params);
    expect((page.data as { account: { leverage: { marginMode: string } } }).account.leverage.marginMode).toBe("cross");
    expect((await maker.browser.post(contractRoute.action, PAGE, order({ direction: "2", price: "50010", num: "5" }), params)).status).toBe(302);
    expect((await member.browser.post(contractRoute.action, PAGE, order({ orderType: "market", price: "", num: "5" }), params)).status).toBe(302);
    expect((await member.positions())[0]).toMatchObject({ marginMode: "cross", qty: "5" });
    expect((await mode("isolated")).status).toBe(302);
    const refused = await member.browser.toast();
    expect(refused).toMatchObject({ type: "error" });
    expect(JSON.stringify(refused)).toMatch(/margin mode/);
  });

  it("sends a visitor's post to the login page", async () => {
    const answer = await new Browser().post(contractRoute.action, PAGE, order(), params);
    expect(answer.status).toBe(302);
    expect(answer.location).toMatch(/^\/user\/login\?redirectTo=/);
  });
});
