import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import type { ContractOrder } from "#protocol/endpoints/contracts";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as ordersRoute from "./future.$kind";
import * as exportRoute from "./future.$kind_.export";

/** The orders area's contract pages (issue 30; spec §2 `future/u`, `future/coin`) against a real engine. */
let exchange: TestExchange;
let browser: Browser;
let caller: Awaited<ReturnType<TestExchange["as"]>>;
beforeAll(async () => {
  exchange = await startTestExchange();
  expect(
    await exchange.contracts.tick(
      [
        ["BTC/USDT", "50000"],
        ["ETH/USDT", "3000"],
      ],
      Date.now(),
    ),
  ).toBe("OK");
  const email = "contract-orders@example.com";
  const uid = await exchange.register(email);
  await exchange.deposit(uid, "USDT", "2000");
  browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  caller = await exchange.as(browser);
  await exchange.api.data(endpoints.transfer, { query: { from: "2", to: "4", coin: "USDT", amount: "2000", idempotencyKey: "orders-transfer-1" } }, caller);
  // Two resting longs (BTC and ETH) and one cancelled one.
  let n = 0;
  const place = (symbol: string, price: string) =>
    exchange.api.data(
      endpoints.placeContractOrder,
      { params: { action: "open", type: "1" }, body: { symbol, direction: "1", price, num: "2", idempotencyKey: `orders-place-${++n}` } },
      caller,
    );
  await place("BTC_USDT", "49000");
  await place("ETH_USDT", "2900");
  const gone = await place("BTC_USDT", "48500");
  await exchange.api.data(endpoints.cancelContractOrder, { body: { orderId: gone.orderId } }, caller);
});
afterAll(() => exchange?.close());

type Page = { kind: string; tab: string; symbol: string | null; contracts: string[]; list: { tab: string; list: unknown[] }; total: number };
const load = async (path: string, kind = "u") => {
  const answer = await browser.get(ordersRoute.loader, path, { kind });
  const page = answer.data as Page;
  return { status: answer.status, page: { ...page, orders: (page?.list?.list ?? []) as ContractOrder[] } };
};

describe("contract orders in the orders area", () => {
  it("lists the open orders of the kind, filters by contract, and shows the history", async () => {
    const open = await load("/account/entrust/future/u");
    expect(open.status).toBe(200);
    expect(open.page.contracts).toEqual(["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT"]);
    expect(open.page.orders.map((o) => [o.symbolName, o.price])).toEqual([
      ["ETH/USDT", "2900"],
      ["BTC/USDT", "49000"],
    ]);
    const btc = await load("/account/entrust/future/u?tab=open&symbol=BTC_USDT");
    expect(btc.page.orders.map((o) => o.price)).toEqual(["49000"]);
    // A contract of the other kind, or nonsense, is no filter.
    expect((await load("/account/entrust/future/u?symbol=BTC_USD")).page).toMatchObject({ symbol: null, total: 2 });
    const history = await load("/account/entrust/future/u?tab=history");
    expect(history.page.orders).toMatchObject([{ symbolName: "BTC/USDT", price: "48500", status: "cancelled" }]);
    expect((await load("/account/entrust/future/coin", "coin")).page).toMatchObject({ kind: "coin", contracts: ["BTC/USD", "ETH/USD"], total: 0 });
    expect((await load("/account/entrust/future/x", "x")).status).toBe(404);
    // The funding and liquidation lists of the kind: none yet for a member without a position.
    expect((await load("/account/entrust/future/u?tab=funding")).page).toMatchObject({ tab: "funding", list: { tab: "funding", list: [] }, total: 0 });
    expect((await load("/account/entrust/future/u?tab=liquidations&symbol=BTC_USDT")).page).toMatchObject({
      tab: "liquidations",
      symbol: "BTC_USDT",
      total: 0,
    });
    expect((await load("/account/entrust/future/u?tab=nonsense")).page.tab).toBe("open");
  });

  it("downloads the kind's trades as CSV through the engine; an unknown kind is a 404", async () => {
    const file = await browser.get(exportRoute.loader, "/account/entrust/future/u/export?symbol=BTC_USDT", { kind: "u" });
    expect(file.status).toBe(200);
    expect(file.headers?.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(file.headers?.get("content-disposition")).toMatch(/^attachment; filename="contract-trades-BTC_USDT-\d{8}\.csv"$/);
    // Resting orders have no trades: the header line alone.
    expect(file.data).toBe("Time (UTC),Trade ID,Order ID,Contract,Direction,Role,Price,Contracts,Fee,Realised profit,Settlement coin\r\n");
    expect((await browser.get(exportRoute.loader, "/account/entrust/future/x/export", { kind: "x" })).status).toBe(404);
  });

  it("cancels an open order and comes back with a toast; another member's order is refused", async () => {
    const { page } = await load("/account/entrust/future/u?tab=open&symbol=ETH_USDT");
    const answer = await browser.post(
      ordersRoute.action,
      "/account/entrust/future/u?tab=open&symbol=ETH_USDT",
      { intent: "cancel", orderId: page.orders[0]!.orderId },
      { kind: "u" },
    );
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/account/entrust/future/u?tab=open&symbol=ETH_USDT");
    expect(await browser.toast()).toMatchObject({ type: "success", key: "entrust.cancelled" });
    expect((await load("/account/entrust/future/u")).page.total).toBe(1);
    const other = await browser.post(ordersRoute.action, "/account/entrust/future/u", { intent: "cancel", orderId: "c-not-mine-0001" }, { kind: "u" });
    expect(other.status).toBe(302);
    expect(await browser.toast()).toMatchObject({ type: "error" });
    expect((await load("/account/entrust/future/u")).page.total).toBe(1);
  });
});
