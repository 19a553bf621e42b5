import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import type { Notice } from "#protocol/endpoints/notices";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as rootRoute from "../../../root";
import * as merchantRoute from "../../merchant";
import * as orderRoute from "../../order";
import * as liveRoute from "../center_.notifications.live";
import * as pageRoute from "./notifications";

/** The notifications page, the shell's bell and stack, and the named routes, as a browser without JavaScript sees them. */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const PAGE = "/account/center/notifications";
let members = 0;
let keys = 0;

async function loggedInMember() {
  const email = `notices-${++members}@example.com`;
  const uid = await exchange.register(email);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  return { uid, browser };
}

/** `count` of the member's market buys, each filled against a resting sell of another member. */
async function fills(buyer: { uid: string; browser: Browser }, count: number) {
  const seller = await loggedInMember();
  await exchange.deposit(seller.uid, "BTC", "1");
  await exchange.deposit(buyer.uid, "USDT", "100000");
  for (let i = 0; i < count; i++) {
    const place = (who: Browser, body: Record<string, string>, type: "1" | "2") =>
      exchange
        .as(who)
        .then((caller) =>
          exchange.api.data(
            endpoints.placeOrder,
            { params: { type }, body: { symbol: "BTC_USDT", idempotencyKey: `notices-order-${++keys}`, ...body } as never },
            caller,
          ),
        );
    await place(seller.browser, { direction: "sell", price: "60000", num: "0.001" }, "1");
    await place(buyer.browser, { direction: "buy", num: "0.001" }, "2");
  }
}

interface Shell {
  notices: { unread: number; lastId: string | null; stack: Notice[] } | null;
}
const shellOf = async (browser: Browser, path = "/home/index") => (await browser.get(rootRoute.loader, path)).data as Shell;

describe("notifications in the shell and on their page", () => {
  it("stacks a fill on the next page, the newest four only, and counts it on the bell", async () => {
    const member = await loggedInMember();
    // The first page of a browser marks where its stack starts.
    expect((await shellOf(member.browser))!.notices).toEqual({ unread: 0, lastId: null, stack: [] });
    await fills(member, 1);
    const first = await shellOf(member.browser);
    expect(first.notices!.unread).toBe(1);
    expect(first.notices!.stack.map((n) => [n.type, n.content])).toEqual([["order_filled", "Your buy order on BTC/USDT was filled."]]);
    // Shown once: the next page stacks nothing new.
    expect((await shellOf(member.browser)).notices!.stack).toEqual([]);

    await fills(member, 5);
    const five = await shellOf(member.browser);
    expect(five.notices!.unread).toBe(6);
    expect(five.notices!.stack).toHaveLength(4);
    expect(five.notices!.lastId).toBe(five.notices!.stack.at(-1)!.id);
  });

  it("lists them, marks one read and then all, each by a form post that comes back to the page", async () => {
    const member = await loggedInMember();
    await fills(member, 3);
    const page = async (query = "") =>
      (await member.browser.get(pageRoute.loader, `${PAGE}${query}`)).data as {
        page: { records: Notice[]; unread: number; total: number };
        unreadOnly: boolean;
      };
    const all = await page();
    expect(all.page).toMatchObject({ unread: 3, total: 3 });
    expect(all.page.records.every((r) => r.isNew && r.serviceType === "spot" && r.orderCode)).toBe(true);

    const one = await member.browser.post(pageRoute.action, PAGE, { intent: "read", id: all.page.records[0]!.id, redirectTo: `${PAGE}?filter=unread` });
    expect(one.location).toBe(`${PAGE}?filter=unread`);
    expect((await page("?filter=unread")).page).toMatchObject({ unread: 2, total: 2 });

    // Another member cannot mark them.
    const other = await loggedInMember();
    await other.browser.post(pageRoute.action, PAGE, { intent: "read", id: all.page.records[1]!.id });
    expect((await page()).page.unread).toBe(2);

    const allRead = await member.browser.post(pageRoute.action, PAGE, { intent: "read-all", redirectTo: "https://elsewhere.example/" });
    expect(allRead.location).toBe(PAGE);
    expect(await member.browser.toast()).toMatchObject({ type: "success", key: "notices.all_read" });
    expect((await page()).page.unread).toBe(0);
    expect((await shellOf(member.browser)).notices!.unread).toBe(0);
  });

  it("gives the live stack a ticket for the member's topic and what came after an id", async () => {
    const member = await loggedInMember();
    // A resource route: its answer is the JSON text.
    const read = async (browser: Browser, url: string) => JSON.parse((await browser.get(liveRoute.loader, url)).data as string) as unknown;
    const empty = (await read(member.browser, `${PAGE}/live?after=0`)) as { topic: string; ticket: string; latest: Notice[] };
    expect(empty.topic).toMatch(/^refresh_\d+$/);
    expect(empty.ticket).toMatch(/^\d+\.\d+\./);
    expect(empty.latest).toEqual([]);
    await fills(member, 2);
    const live = (await read(member.browser, `${PAGE}/live?after=0`)) as { latest: Notice[]; unread: number };
    expect(live.unread).toBe(2);
    expect(live.latest).toHaveLength(2);
    // A visitor (a read arriving after the logout) is told "signed out", never redirected: a
    // fetcher that meets a redirect would move the whole page.
    const visitor = await new Browser().get(liveRoute.loader, `${PAGE}/live`);
    expect(visitor.location).toBeFalsy();
    expect(JSON.parse(visitor.data as string)).toEqual({ signedOut: true });
  });

  it("resolves the named routes order and merchant by service type", async () => {
    const browser = new Browser();
    const target = async (route: typeof orderRoute, query: string) => (await browser.get(route.loader, `/x?${query}`)).location;
    expect(await target(orderRoute, "serviceType=spot&orderCode=abc123")).toBe("/account/entrust/spot/abc123");
    expect(await target(orderRoute, "serviceType=spot")).toBe("/account/entrust/spot");
    expect(await target(orderRoute, "serviceType=deposit&orderCode=chain:tron:ab:0")).toBe("/account/wallet/history-deposit");
    expect(await target(orderRoute, "serviceType=withdrawal&orderCode=w1")).toBe("/account/wallet/history-withdrawal");
    expect(await target(orderRoute, "serviceType=contract&orderCode=BTC_USDT")).toBe("/exchange/full-contract/BTC_USDT");
    expect(await target(orderRoute, "serviceType=contract")).toBe("/account/entrust/future/u");
    expect(await target(orderRoute, "serviceType=kyc")).toBe("/account/center/kyc");
    expect(await target(orderRoute, "serviceType=security")).toBe("/account/center/security");
    expect(await target(orderRoute, "serviceType=otc&orderCode=1")).toBe(PAGE);
    expect(await target(orderRoute, "serviceType=spot&orderCode=../../x")).toBe("/account/entrust/spot");
    expect(await target(merchantRoute, "serviceType=spot&orderCode=abc123")).toBe("/account/entrust/spot/abc123");
    expect(await target(merchantRoute, "")).toBe(PAGE);
  });
});
