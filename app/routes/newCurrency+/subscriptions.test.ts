import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { readFormError } from "~/lib/forms/form-error";
import { withMember } from "~/services/engine/route.server";
import { loadSubscriptionRecords, returnApplyAction } from "~/services/subscriptions/subscriptions.server";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as etfRoute from "../etf+/_index";
import * as etfListRoute from "../etf+/list";
import * as coinRoute from "./_index";
import * as coinListRoute from "./list";

/**
 * The new-coin and ETF subscription pages (spec §2 `/newCurrency`, `/etf`; decision 053) against a
 * real engine, as a browser without JavaScript posts their forms: the projects, subscribing and its
 * refusals, the purchase records through an allotment, and the return application.
 */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const MINUTE = 60_000;

async function member(usdt = "1000") {
  const email = `subscriber-${Math.random().toString(36).slice(2)}@example.com`;
  const uid = await exchange.register(email);
  await exchange.api.data(
    endpoints.adminDeposit,
    { body: { uid, coin: "USDT", account: "funding", amount: usdt, reference: `sub-${uid}` } },
    exchange.operator,
  );
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  return Object.assign(browser, { uid });
}

interface Project {
  projectId: string;
  phase: string;
  askedPercent: string;
  requested: string;
}
interface Projects {
  type: number;
  projects: Project[];
  selected: (Project & { scale: number; price: string }) | null;
  wallet: { coin: string; available: string } | null;
  mine: { asked: string; left: string } | null;
  key: string;
  signedIn: boolean;
}
interface Reply {
  projectId: string;
  key: string;
  result: { error?: Record<string, string[] | null> | null; initialValue?: Record<string, unknown> | null };
}
interface Records {
  shown: string | null;
  page: { records: Array<{ projectId: string; quantity: string; paid: string; wonQuantity: string; refund: string; status: string }>; total: number };
  returnApply: { status: number; returnable: Array<{ coin: string; amount: string }>; returning: Array<{ coin: string; amount: string }> } | null;
  key: string;
}

const etf = async (browser: Browser, path = "/etf") => (await browser.get(etfRoute.loader, path)).data as Projects;
const coins = async (browser: Browser, path = "/newCurrency") => (await browser.get(coinRoute.loader, path)).data as Projects;
const etfRecords = async (browser: Browser, query = "") => (await browser.get(etfListRoute.loader, `/etf/list${query}`)).data as Records;
const coinRecords = async (browser: Browser, query = "") => (await browser.get(coinListRoute.loader, `/newCurrency/list${query}`)).data as Records;
const refusal = (reply: unknown) => (reply as Reply).result.error?.[""]?.map(readFormError);

/** The records page and its action where the site offers the return application (the hk and tr variants). */
const offered = {
  loader: (args: LoaderFunctionArgs) => withMember(args, ({ engine }) => loadSubscriptionRecords(engine, 1, { returnApply: true })),
  action: (args: ActionFunctionArgs) => withMember(args, ({ engine }) => returnApplyAction(engine, 1, { returnApply: true })),
};

async function subscribe(browser: Browser, projectId: string, quantity: string, type: 1 | 2 = 1) {
  const [route, path] = type === 2 ? [etfRoute, "/etf"] : [coinRoute, "/newCurrency"];
  const key = ((await browser.get(route.loader, `${path}?project=${projectId}`)).data as Projects).key;
  return browser.post(route.action, `${path}?project=${projectId}`, { projectId, quantity, idempotencyKey: key });
}

describe("the subscription pages", () => {
  it("show anyone the projects of a type, open and upcoming first, with a log-in link instead of the form", async () => {
    const visitor = new Browser();
    const first = await coins(visitor);
    expect(first).toMatchObject({ type: 1, wallet: null, mine: null, signedIn: false });
    expect(first.projects.map((p) => [p.projectId, p.phase])).toEqual([
      ["NXA-R1", "open"],
      ["NXA-R2", "open"],
      ["NXA-R3", "upcoming"],
    ]);
    expect(first.selected).toMatchObject({ projectId: "NXA-R1", scale: 0 });
    expect((await coins(visitor, "/newCurrency?project=NXA-R3")).selected).toMatchObject({ projectId: "NXA-R3", phase: "upcoming" });
    // Another type's project is not this page's: the default one is shown.
    expect((await coins(visitor, "/newCurrency?project=TOP5-R1")).selected?.projectId).toBe("NXA-R1");
    const etfs = await etf(visitor);
    expect(etfs.projects.map((p) => p.projectId)).toEqual(["TOP5-R1"]);
    expect(etfs.selected).toMatchObject({ projectId: "TOP5-R1", price: "10", scale: 1, askedPercent: "0.00" });
    // The records and the form's post send a visitor to log in.
    expect((await visitor.get(etfListRoute.loader, "/etf/list")).location).toBe("/user/login?redirectTo=%2Fetf%2Flist");
    const posted = await visitor.post(etfRoute.action, "/etf", { projectId: "TOP5-R1", quantity: "1", idempotencyKey: "visitor-key-0001" });
    expect(posted.status).toBe(302);
    expect(posted.location).toMatch(/^\/user\/login/);
  });

  it("refuses below the minimum, not a whole lot, over-precise, above the limit and unaffordable, keeping what was typed and changing nothing", async () => {
    const browser = await member();
    const page = await etf(browser);
    expect(page).toMatchObject({ signedIn: true, wallet: { coin: "USDT", available: "1000" }, mine: { asked: "0", left: "5000" } });
    // Each refusal answers a new key for the next try, as the page's form then posts.
    let key = page.key;
    const post = async (projectId: string, quantity: string) => {
      const route = projectId.startsWith("TOP5") ? etfRoute : coinRoute;
      const answer = await browser.post(route.action, route === etfRoute ? "/etf" : "/newCurrency", { projectId, quantity, idempotencyKey: key });
      key = (answer.data as Reply).key;
      return answer;
    };

    const small = await post("TOP5-R1", "0.5");
    expect(small.status).toBe(400);
    expect(refusal(small.data)).toEqual([{ text: "The smallest subscription is 1 TOP5." }]);
    expect((small.data as Reply).result.initialValue).toMatchObject({ quantity: "0.5" });
    expect((small.data as Reply).key).not.toBe(page.key);

    const notALot = await post("NXA-R2", "105");
    expect(refusal(notALot.data)).toEqual([{ text: "Enter a whole number of lots of 10 NXA." }]);

    const precise = await post("TOP5-R1", "1.25");
    expect(precise.status).toBe(400);
    expect((precise.data as Reply).result.error?.quantity).toEqual(["validation.number.decimals"]);
    const zero = await post("TOP5-R1", "0");
    expect((zero.data as Reply).result.error?.quantity).toEqual(["validation.number.zero"]);
    const empty = await post("TOP5-R1", "");
    expect((empty.data as Reply).result.error?.quantity).toEqual(["subscriptions.validation.quantity_required"]);

    const above = await post("TOP5-R1", "5000.1");
    expect(refusal(above.data)).toEqual([{ text: "One member may ask at most 5000 TOP5 in this project: you can ask 5000 TOP5 more." }]);
    const poor = await post("TOP5-R1", "150");
    expect(refusal(poor.data)).toEqual([{ text: "Not enough USDT available in your funding account to pay for it." }]);
    expect((poor.data as Reply).result.initialValue).toMatchObject({ quantity: "150" });

    // An ETF's project is not the new-coin page's to subscribe.
    const elsewhere = await browser.post(coinRoute.action, "/newCurrency", { projectId: "TOP5-R1", quantity: "1", idempotencyKey: key });
    expect(refusal(elsewhere.data)).toEqual([{ key: "subscriptions.validation.project" }]);

    expect((await etfRecords(browser)).page.records).toEqual([]);
    expect(await etf(browser)).toMatchObject({ wallet: { available: "1000" }, mine: { asked: "0" } });
  });

  it("subscribes once per key, and shows the record in purchase on the type's records page", async () => {
    const browser = await member();
    const page = await etf(browser);
    const form = { projectId: "TOP5-R1", quantity: "2.5", idempotencyKey: page.key };
    const done = await browser.post(etfRoute.action, "/etf", form);
    expect(done).toMatchObject({ status: 302, location: "/etf/list" });
    expect(await browser.toast()).toMatchObject({
      type: "success",
      key: "subscriptions.subscribed",
      values: { quantity: "2.5", coin: "TOP5", amount: "25", payCoin: "USDT" },
    });
    // The same post again (a retry) subscribes nothing more.
    expect(await browser.post(etfRoute.action, "/etf", form)).toMatchObject({ status: 302, location: "/etf/list" });
    const records = await etfRecords(browser);
    expect(records.page.records).toMatchObject([{ projectId: "TOP5-R1", quantity: "2.5", paid: "25", status: "subscribing" }]);
    expect(records.returnApply).toBeNull();
    expect((await etfRecords(browser, "?status=won")).page.records).toEqual([]);
    expect((await etfRecords(browser, "?status=subscribing")).shown).toBe("subscribing");
    expect((await etfRecords(browser, "?status=nope")).shown).toBeNull();
    // The new-coin records are another list.
    expect((await coinRecords(browser)).page.records).toEqual([]);
    expect(await etf(browser)).toMatchObject({ wallet: { available: "975" }, mine: { asked: "2.5", left: "4997.5" } });
    const after = await etf(browser);
    expect(Number(after.selected!.requested)).toBeGreaterThanOrEqual(2.5);

    // Another member sees none of it.
    const other = await member();
    expect((await etfRecords(other)).page.records).toEqual([]);
    expect((await etf(other)).mine).toMatchObject({ asked: "0" });
  });

  // Last: it allots every project whose window ended before the tick.
  it("moves the records through the allotment, and applies for the return where the site offers it", async () => {
    const now = Date.now();
    const project = (projectId: string, returnByApplication: boolean, supply: string) =>
      exchange.api.data(
        endpoints.adminSubscriptionProject,
        {
          body: {
            projectId,
            type: 1,
            coin: "NXA",
            payCoin: "USDT",
            price: "1",
            lot: "1",
            supply,
            minPerMember: "1",
            maxPerMember: "1000",
            startAt: new Date(now - MINUTE).toISOString(),
            endAt: new Date(now + 5 * MINUTE).toISOString(),
            returnByApplication,
          },
        },
        exchange.operator,
      );
    await project("T-WON", true, "1000");
    await project("T-OVER", true, "100");
    await project("T-BACK", false, "100");
    const alice = await member();
    const bob = await member();
    for (const [who, projectId, quantity] of [
      [alice, "T-WON", "10"],
      [alice, "T-OVER", "100"],
      [bob, "T-OVER", "100"],
      [alice, "T-BACK", "100"],
      [bob, "T-BACK", "100"],
    ] as const) {
      expect(await subscribe(who, projectId, quantity)).toMatchObject({ status: 302, location: "/newCurrency/list" });
    }
    expect((await coins(alice, "/newCurrency?project=T-OVER")).selected).toMatchObject({ requested: "200", askedPercent: "200.00" });

    await exchange.subscriptions.tick(now + 6 * MINUTE);
    const byProject = (records: Records) => Object.fromEntries(records.page.records.map((r) => [r.projectId, [r.status, r.wonQuantity, r.refund]]));
    expect(byProject(await coinRecords(alice))).toEqual({
      "T-WON": ["won", "10", "0"],
      "T-OVER": ["allotted", "50", "50"],
      "T-BACK": ["already_returned", "50", "50"],
    });
    expect((await coinRecords(alice, "?status=allotted")).page.records.map((r) => r.projectId)).toEqual(["T-OVER"]);

    // The default site does not offer the return application: no section, and its post is not found.
    expect((await coinRecords(alice)).returnApply).toBeNull();
    expect((await alice.post(coinListRoute.action, "/newCurrency/list", { idempotencyKey: "return-key-000001" })).status).toBe(404);

    // Where it is offered: what waits, then the application, once per key.
    const before = (await alice.get(offered.loader, "/newCurrency/list")).data as Records;
    expect(before.returnApply).toMatchObject({ status: 2, returnable: [{ coin: "USDT", amount: "50" }], returning: [] });
    const applied = await alice.post(offered.action, "/newCurrency/list", { idempotencyKey: before.key });
    expect(applied).toMatchObject({ status: 302, location: "/newCurrency/list" });
    expect(await alice.toast()).toMatchObject({ type: "success", key: "subscriptions.return_done" });
    expect(await alice.post(offered.action, "/newCurrency/list", { idempotencyKey: before.key })).toMatchObject({ status: 302 });
    const after = (await alice.get(offered.loader, "/newCurrency/list")).data as Records;
    expect(after.returnApply).toMatchObject({ status: 0, returnable: [], returning: [{ coin: "USDT", amount: "50" }] });
    expect(byProject(after)["T-OVER"]![0]).toBe("returning");
    // Applying again with nothing left to return is refused with the engine's words.
    await alice.post(offered.action, "/newCurrency/list", { idempotencyKey: after.key });
    expect(await alice.toast()).toMatchObject({ type: "error", message: "Nothing is waiting to be returned to you, or your application is already with us." });

    // Bob's return is still his own to apply for.
    const bobs = (await bob.get(offered.loader, "/newCurrency/list")).data as Records;
    expect(bobs.returnApply).toMatchObject({ status: 2, returnable: [{ coin: "USDT", amount: "50" }] });
    expect(Object.keys(byProject(bobs)).sort()).toEqual(["T-BACK", "T-OVER"]);
  });
});
