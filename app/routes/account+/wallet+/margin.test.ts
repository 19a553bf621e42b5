import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as marginRoute from "./margin";

/** The margin page (issue 31) against a real engine, as a browser without JavaScript posts its forms. */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const PAGE = "/account/wallet/margin";

interface Page {
  account: {
    symbolName: string | null;
    marginLevel: string | null;
    debtsValue: string;
    leverage: number;
    coins: Array<{ coin: string; balance: string; owed: string }>;
  };
  tabs: Array<{ symbol: string | null }>;
  keys: { move: string; leverage: string };
}
interface Reply {
  form: string;
  key: string;
  result: { error?: Record<string, string[] | null> | null };
}

async function memberWithFunds() {
  const email = `margin-page-${Math.random().toString(36).slice(2)}@example.com`;
  const uid = await exchange.register(email);
  await exchange.api.data(
    endpoints.adminDeposit,
    { body: { uid, coin: "USDT", account: "funding", amount: "2000", reference: `mp-${uid}` } },
    exchange.operator,
  );
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  return browser;
}

describe("the margin page", () => {
  it("moves funds in, borrows and repays on cross margin, once per key, and says what would pass when refused", async () => {
    const browser = await memberWithFunds();
    const first = (await browser.get(marginRoute.loader, PAGE)).data as Page;
    expect(first.account).toMatchObject({ symbolName: null, marginLevel: null, leverage: 3 });
    expect(first.tabs.map((t) => t.symbol)).toEqual([null, "BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT"]);

    const moved = await browser.post(marginRoute.action, PAGE, {
      intent: "move",
      operation: "in",
      coin: "USDT",
      amount: "1000",
      idempotencyKey: first.keys.move,
    });
    expect(moved.status).toBe(302);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "margin_page.done_in", values: { amount: "1,000", coin: "USDT" } });
    // The same post again (a retried form) moves nothing more.
    await browser.post(marginRoute.action, PAGE, { intent: "move", operation: "in", coin: "USDT", amount: "1000", idempotencyKey: first.keys.move });
    await browser.toast();

    const borrow = (amount: string, key: string) =>
      browser.post(marginRoute.action, PAGE, { intent: "move", operation: "borrow", coin: "USDT", amount, idempotencyKey: key });
    const tooMuch = await borrow("2500", "mp-borrow-0001");
    expect(tooMuch.status).toBe(400);
    expect(JSON.stringify((tooMuch.data as Reply).result.error)).toContain("You can borrow at most 2000 USDT now.");
    expect((await borrow("500", "mp-borrow-0002")).status).toBe(302);
    await browser.toast();
    const page = (await browser.get(marginRoute.loader, PAGE)).data as Page;
    expect(page.account.coins.find((c) => c.coin === "USDT")).toMatchObject({ balance: "1500", owed: "500.005" });
    expect(page.account.marginLevel).toBe("2.99");

    const bad = await browser.post(marginRoute.action, PAGE, {
      intent: "move",
      operation: "repay",
      coin: "USDT",
      amount: "1,5x",
      idempotencyKey: "mp-repay-0001",
    });
    expect(bad.status).toBe(400);
    expect((bad.data as Reply).result.error?.amount).toBeTruthy();
    const over = await browser.post(marginRoute.action, PAGE, {
      intent: "move",
      operation: "repay",
      coin: "USDT",
      amount: "600",
      idempotencyKey: "mp-repay-0002",
    });
    expect(JSON.stringify((over.data as Reply).result.error)).toContain("You owe 500.005 USDT: repay at most that.");
    expect(
      (await browser.post(marginRoute.action, PAGE, { intent: "move", operation: "repay", coin: "USDT", amount: "500.005", idempotencyKey: "mp-repay-0003" }))
        .status,
    ).toBe(302);
    expect(await browser.toast()).toMatchObject({ key: "margin_page.done_repay" });
    expect(((await browser.get(marginRoute.loader, PAGE)).data as Page).account.debtsValue).toBe("0");
  });

  it("shows an isolated account and sets its leverage within the pair's maximum", async () => {
    const browser = await memberWithFunds();
    const url = `${PAGE}?account=BTC_USDT`;
    const page = (await browser.get(marginRoute.loader, url)).data as Page;
    expect(page.account).toMatchObject({ symbolName: "BTC/USDT", leverage: 5 });
    expect((await browser.post(marginRoute.action, url, { intent: "leverage", leverage: "10", idempotencyKey: page.keys.leverage })).status).toBe(302);
    expect(((await browser.get(marginRoute.loader, url)).data as Page).account.leverage).toBe(10);
    const refused = await browser.post(marginRoute.action, url, { intent: "leverage", leverage: "11", idempotencyKey: "mp-lev-0002" });
    expect(refused.status).toBe(400);
    expect((refused.data as Reply).result.error?.leverage).toEqual(["margin_page.validation.leverage"]);
    // An address naming no margin pair shows the cross account.
    expect(((await browser.get(marginRoute.loader, `${PAGE}?account=DOGE_USDT`)).data as Page).account.symbolName).toBeNull();
  });
});
