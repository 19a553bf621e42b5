import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as exchangeRoute from "./full-screen.$symbol";
import { readFormError } from "~/lib/forms/form-error";

/**
 * The trading page's action against a real engine (an empty BTC/USDT book, no simulator): what
 * the member sees (status, redirect, toast, the form kept) and what the engine holds afterwards.
 */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const PAGE = "/exchange/full-screen/BTC_USDT";
const params = { symbol: "BTC_USDT" };

let members = 0;
async function trader({ usdt = "10000" } = {}) {
  const email = `trader-${++members}@example.com`;
  const uid = await exchange.register(email);
  if (usdt !== "0") await exchange.deposit(uid, "USDT", usdt);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  const caller = await exchange.as(browser);
  return {
    browser,
    usdt: async () => (await exchange.api.data(endpoints.balances, { query: { type: "2" } }, caller)).find((b) => b.coin === "USDT"),
    openOrders: async () => (await exchange.api.data(endpoints.myOrders, { params: { scope: "current" }, query: { symbol: "BTC_USDT" } }, caller)).records,
    history: async () => (await exchange.api.data(endpoints.myOrders, { params: { scope: "history" }, query: { symbol: "BTC_USDT" } }, caller)).records,
  };
}

let keys = 0;
const limitBuy = (fields: Record<string, string> = {}) => ({
  side: "buy",
  orderType: "limit",
  price: "50000",
  num: "0.01",
  idempotencyKey: `route-test-key-${++keys}`,
  ...fields,
});

/** Conform's reply as the page reads it back. */
interface OrderReply {
  side: string;
  result: { initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> | null };
  key?: string;
}
const replyOf = (data: unknown) => data as OrderReply;

describe("placing an order", () => {
  it("places a valid limit order and comes back to the page with a toast", async () => {
    const { browser, usdt, openOrders } = await trader();
    const answer = await browser.post(exchangeRoute.action, PAGE, limitBuy(), params);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(PAGE);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "exchange.placed_open" });
    expect(await usdt()).toEqual({ coin: "USDT", available: "9500", frozen: "500" });
    expect(await openOrders()).toMatchObject([{ symbol: "BTC/USDT", side: "buy", type: "limit", status: "open", price: "50000", quantity: "0.01" }]);
  });

  it("keeps the page's query (the order type tab) in the redirect", async () => {
    const { browser } = await trader();
    const answer = await browser.post(exchangeRoute.action, `${PAGE}?type=limit&index`, limitBuy(), params);
    expect(answer.location).toBe(`${PAGE}?type=limit`);
  });

  it("answers an invalid form with 400, the field's error and what was typed", async () => {
    const { browser, usdt, openOrders } = await trader();
    const answer = await browser.post(exchangeRoute.action, PAGE, limitBuy({ side: "sell", price: "50000.123", num: "0.5" }), params);
    expect(answer.status).toBe(400);
    const reply = replyOf(answer.data);
    expect(reply.side).toBe("sell");
    expect(Object.keys(reply.result.error ?? {})).toEqual(["price"]);
    expect(reply.result.initialValue).toMatchObject({ side: "sell", orderType: "limit", price: "50000.123", num: "0.5" });
    expect(await openOrders()).toEqual([]);
    expect(await usdt()).toEqual({ coin: "USDT", available: "10000", frozen: "0" });
  });

  it("asks for the price of a limit order", async () => {
    const { browser, openOrders } = await trader();
    const answer = await browser.post(exchangeRoute.action, PAGE, limitBuy({ price: "" }), params);
    expect(answer.status).toBe(400);
    expect(replyOf(answer.data).result.error).toMatchObject({ price: ["spot.validation.price_required"] });
    expect(await openOrders()).toEqual([]);
  });

  it("places one order when the same form is posted twice (same idempotency key)", async () => {
    const { browser, usdt, openOrders } = await trader();
    const form = limitBuy();
    const first = await browser.post(exchangeRoute.action, PAGE, form, params);
    const retry = await browser.post(exchangeRoute.action, PAGE, form, params);
    expect([first.status, retry.status]).toEqual([302, 302]);
    expect(await openOrders()).toHaveLength(1);
    expect(await usdt()).toEqual({ coin: "USDT", available: "9500", frozen: "500" });
  });

  it("shows the engine's refusal on the form, with a new key for the next try", async () => {
    const { browser, openOrders } = await trader({ usdt: "100" });
    const form = limitBuy();
    const answer = await browser.post(exchangeRoute.action, PAGE, form, params);
    expect(answer.status).toBe(400);
    const reply = replyOf(answer.data);
    // The engine's message, marked as a text in the member's language (not a key to translate).
    expect(reply.result.error?.[""]?.map(readFormError)).toEqual([{ text: "Insufficient available balance" }]);
    expect(reply.result.initialValue).toMatchObject({ price: "50000", num: "0.01" });
    expect(reply.key).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(reply.key).not.toBe(form.idempotencyKey);
    expect(await openOrders()).toEqual([]);
  });

  it("sends a visitor to the login page, coming back to the market", async () => {
    const answer = await new Browser().post(exchangeRoute.action, PAGE, limitBuy(), params);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`/user/login?redirectTo=${encodeURIComponent(PAGE)}`);
  });

  it("answers 404 for a market that does not exist", async () => {
    const { browser } = await trader({ usdt: "0" });
    const answer = await browser.post(exchangeRoute.action, "/exchange/full-screen/NOPE_USDT", limitBuy(), { symbol: "NOPE_USDT" });
    expect(answer.status).toBe(404);
  });
});

describe("cancelling an order", () => {
  it("cancels the member's open order and releases the funds", async () => {
    const { browser, usdt, openOrders, history } = await trader();
    await browser.post(exchangeRoute.action, PAGE, limitBuy(), params);
    await browser.toast();
    const [order] = await openOrders();

    const answer = await browser.post(exchangeRoute.action, PAGE, { intent: "cancel", orderId: order!.orderId }, params);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(PAGE);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "exchange.cancelled" });
    expect(await usdt()).toEqual({ coin: "USDT", available: "10000", frozen: "0" });
    expect(await openOrders()).toEqual([]);
    expect(await history()).toMatchObject([{ orderId: order!.orderId, status: "cancelled" }]);
  });

  it("refuses to cancel another member's order, which stays open", async () => {
    const owner = await trader();
    await owner.browser.post(exchangeRoute.action, PAGE, limitBuy(), params);
    const [order] = await owner.openOrders();
    const other = await trader({ usdt: "0" });

    const answer = await other.browser.post(exchangeRoute.action, PAGE, { intent: "cancel", orderId: order!.orderId }, params);
    expect(answer.location).toBe(PAGE);
    expect(await other.browser.toast()).toMatchObject({ type: "error" });
    expect(await owner.openOrders()).toMatchObject([{ orderId: order!.orderId, status: "open" }]);
  });
});

describe("the trading page", () => {
  it("shows a member the order just placed and what it holds", async () => {
    const { browser } = await trader();
    await browser.post(exchangeRoute.action, PAGE, limitBuy(), params);
    const page = await browser.get(exchangeRoute.loader, PAGE, params);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      symbol: "BTC/USDT",
      account: { quote: { coin: "USDT", available: "9500", frozen: "500" }, openOrders: [{ side: "buy", price: "50000", status: "open" }] },
    });
  });

  it("shows a visitor the market without an account", async () => {
    const page = await new Browser().get(exchangeRoute.loader, PAGE, params);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ symbol: "BTC/USDT", account: null });
  });
});

describe("trading on margin from the trading page", () => {
  async function marginTrader() {
    const email = `margin-trader-${++members}@example.com`;
    const uid = await exchange.register(email);
    await exchange.api.data(
      endpoints.adminDeposit,
      { body: { uid, coin: "USDT", account: "funding", amount: "3000", reference: `mt-${uid}` } },
      exchange.operator,
    );
    const browser = new Browser();
    await browser.logIn(email, TEST_PASSWORD);
    const caller = await exchange.as(browser);
    await exchange.api.data(
      endpoints.marginTransfer,
      { params: { mode: "all" }, body: { coin: "USDT", amount: "2000", direction: "in", idempotencyKey: `mt-in-${uid}` } },
      caller,
    );
    return { browser, caller };
  }

  it("switches the forms to the cross margin account, shows its level and debts, and places the order from it", async () => {
    const { browser, caller } = await marginTrader();
    const cash = await browser.get(exchangeRoute.loader, PAGE, params);
    // Cash: the spot account (empty), with the switch offered on a margin pair.
    expect(cash.data).toMatchObject({ account: { deal: "cash", quote: { available: "0" }, margin: { account: null } } });
    const margin = await browser.get(exchangeRoute.loader, `${PAGE}?deal=all`, params);
    expect(margin.data).toMatchObject({
      account: {
        deal: "all",
        quote: { coin: "USDT", available: "2000", frozen: "0" },
        margin: { account: { marginLevel: null, debtsValue: "0", leverage: 3 } },
      },
    });
    const answer = await browser.post(exchangeRoute.action, `${PAGE}?deal=all`, limitBuy({ deal: "all" }), params);
    expect(answer).toMatchObject({ status: 302, location: `${PAGE}?deal=all` });
    const orders = await exchange.api.data(endpoints.myOrders, { params: { scope: "current" }, query: { account: "all" } }, caller);
    expect(orders.records).toMatchObject([{ symbol: "BTC/USDT", side: "buy", price: "50000", account: "all" }]);
    const after = await browser.get(exchangeRoute.loader, `${PAGE}?deal=all`, params);
    expect(after.data).toMatchObject({ account: { quote: { available: "1500", frozen: "500" } } });
  });

  it("trades cash on a market that is not on margin, whatever the address asks; a deal that is none is refused on the form", async () => {
    const { browser } = await marginTrader();
    const doge = await browser.get(exchangeRoute.loader, "/exchange/full-screen/DOGE_USDT?deal=all", { symbol: "DOGE_USDT" });
    expect(doge.data).toMatchObject({ account: { deal: "cash", margin: null } });
    const odd = await browser.post(exchangeRoute.action, PAGE, limitBuy({ deal: "loan" }), params);
    expect(odd.status).toBe(400);
    // The isolated account holds nothing yet: the engine refuses, nothing is placed.
    const isolated = await browser.post(exchangeRoute.action, `${PAGE}?deal=fixed`, limitBuy({ deal: "fixed" }), params);
    expect(isolated.status).toBe(400);
    expect(replyOf(isolated.data).result.error?.[""]?.map(readFormError)).toEqual([{ text: "Insufficient available balance" }]);
  });
});
