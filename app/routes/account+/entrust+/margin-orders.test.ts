import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import type { OrdersPageData } from "~/components/orders-page";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as crossRoute from "./margin-all._index";
import * as crossExport from "./margin-all.export";
import * as isolatedRoute from "./margin-fixed._index";
import * as isolatedExport from "./margin-fixed.export";
import * as spotRoute from "./spot._index";

/** The orders area's margin pages (issue 31; spec §2 `margin-all`, `margin-fixed`) against a real engine. */
let exchange: TestExchange;
let browser: Browser;
let orderId: string;
beforeAll(async () => {
  exchange = await startTestExchange();
  const email = "margin-orders@example.com";
  const uid = await exchange.register(email);
  await exchange.api.data(
    endpoints.adminDeposit,
    { body: { uid, coin: "USDT", account: "funding", amount: "2000", reference: `mo-${uid}` } },
    exchange.operator,
  );
  browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  const caller = await exchange.as(browser);
  const move = (body: object, key: string, mode: "all" | "fixed") =>
    exchange.api.data(endpoints.marginTransfer, { params: { mode }, body: { coin: "USDT", direction: "in", idempotencyKey: key, ...body } as never }, caller);
  await move({ amount: "1000" }, "mo-in-cross-1", "all");
  await move({ amount: "500", symbolName: "BTC_USDT" }, "mo-in-iso-1", "fixed");
  // A resting buy from the cross account, far below the market.
  const placed = await exchange.api.data(
    endpoints.placeOrder,
    {
      params: { type: "1" },
      body: { symbol: "BTC_USDT", direction: "buy", price: "100", num: "0.01", dealType: "pry", marginMode: "all", idempotencyKey: "mo-order-1" },
    },
    caller,
  );
  orderId = placed.orderId;
});
afterAll(() => exchange?.close());

const load = async (route: { loader: typeof spotRoute.loader }, path: string) => (await browser.get(route.loader, path)).data as OrdersPageData;
const orderIds = (page: OrdersPageData) => (page.rows?.kind === "orders" ? page.rows.page.records.map((o) => [o.orderId, o.account]) : null);

describe("margin orders in the orders area", () => {
  it("lists a margin order on its account's page only, with the margin pairs to filter by", async () => {
    const cross = await load(crossRoute, "/account/entrust/margin-all");
    expect(cross).toMatchObject({ account: "all", filter: { tab: "open" }, symbols: ["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT"] });
    expect(orderIds(cross)).toEqual([[orderId, "all"]]);
    expect(orderIds(await load(isolatedRoute, "/account/entrust/margin-fixed"))).toEqual([]);
    expect(orderIds(await load(spotRoute, "/account/entrust/spot"))).toEqual([]);
    // The spot page has no records tab: it shows its first tab.
    expect((await load(spotRoute, "/account/entrust/spot?tab=records")).filter.tab).toBe("open");
  });

  it("shows each account's records, the isolated ones by pair, and refuses a reversed range on the page", async () => {
    const cross = await load(crossRoute, "/account/entrust/margin-all?tab=records");
    expect(cross.rows).toMatchObject({ kind: "records", page: { total: 1, records: [{ kind: "in", coin: "USDT", amount: "1000", mode: "all" }] } });
    const isolated = await load(isolatedRoute, "/account/entrust/margin-fixed?tab=records&symbol=BTC_USDT");
    expect(isolated.rows).toMatchObject({ kind: "records", page: { total: 1, records: [{ kind: "in", amount: "500", symbolName: "BTC/USDT" }] } });
    expect((await load(isolatedRoute, "/account/entrust/margin-fixed?tab=records&symbol=ETH_USDT")).rows).toMatchObject({ page: { total: 0 } });
    const reversed = await load(crossRoute, "/account/entrust/margin-all?tab=records&from=2026-02-02&to=2026-02-01");
    expect(reversed).toMatchObject({ rows: null, errors: { to: ["validation.date_range"] } });
  });

  it("downloads the records and the orders of a margin page as CSV", async () => {
    const records = await browser.get(isolatedExport.loader, "/account/entrust/margin-fixed/export?tab=records");
    expect(records.status).toBe(200);
    expect(records.headers?.get("content-disposition")).toMatch(/^attachment; filename="margin-isolated-records-\d{8}\.csv"$/);
    expect(String(records.data).trim().split("\r\n")).toHaveLength(2);
    const orders = await browser.get(crossExport.loader, "/account/entrust/margin-all/export?tab=open");
    expect(orders.headers?.get("content-disposition")).toMatch(/^attachment; filename="margin-cross-open-orders-\d{8}\.csv"$/);
    expect(String(orders.data)).toContain(`,${orderId},BTC/USDT,buy,limit,GTC,100,`);
  });

  it("cancels a margin order from its page and comes back to it with a toast", async () => {
    const answer = await browser.post(crossRoute.action, "/account/entrust/margin-all?tab=open", { intent: "cancel", orderId });
    expect(answer).toMatchObject({ status: 302, location: "/account/entrust/margin-all?tab=open" });
    expect(await browser.toast()).toMatchObject({ type: "success", key: "entrust.cancelled" });
    const history = await load(crossRoute, "/account/entrust/margin-all?tab=history");
    expect(history.rows).toMatchObject({ kind: "orders", page: { records: [{ orderId, status: "cancelled", account: "all" }] } });
  });
});
