import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { readFormError } from "~/lib/forms/form-error";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as marketRoute from "./_index";
import * as mineRoute from "./mine";
import * as recordsRoute from "./records";
import * as redeemRoute from "./redeem.$stakeId";

/** The staking pages (issue 32, decision 052) against a real engine, as a browser without JavaScript posts their forms. */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const DAY_MS = 86_400_000;

async function staker(usdt = "1000") {
  const email = `staker-${Math.random().toString(36).slice(2)}@example.com`;
  const uid = await exchange.register(email);
  await exchange.api.data(endpoints.adminDeposit, { body: { uid, coin: "USDT", account: "funding", amount: usdt, reference: `st-${uid}` } }, exchange.operator);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  return Object.assign(browser, { uid });
}

interface Market {
  coins: string[];
  coin: string;
  products: Array<{ productId: string; termDays: number; yearlyRate: string; minAmount: string; available: string; key: string }>;
  wallet: { available: string; scale: number } | null;
  signedIn: boolean;
}
interface Stake {
  stakeId: string;
  productId: string;
  principal: string;
  interest: string;
  forfeited: string;
  status: string;
  maturesAt: string | null;
  termInterest: string | null;
}
interface Mine {
  running: Stake[];
  ended: { records: Stake[] };
  outstanding: Array<{ coin: string; principal: string; stakes: number }>;
}
interface Redeem {
  stake: Stake;
  preview: { principal: string; interest: string; forfeited: string; payout: string; early: boolean; closes: boolean } | null;
  forfeited: string | null;
  previewError: string | null;
  errors: string[] | null;
  amount: string | null;
  key: string;
}
interface Reply {
  productId?: string;
  key: string;
  result: { error?: Record<string, string[] | null> | null };
}

const market = async (browser: Browser, path = "/finance/investment") => (await browser.get(marketRoute.loader, path)).data as Market;
const mine = async (browser: Browser) => (await browser.get(mineRoute.loader, "/finance/investment/mine")).data as Mine;
const redeemPage = (browser: Browser, stakeId: string, query = "") =>
  browser.get(redeemRoute.loader, `/finance/investment/redeem/${stakeId}${query}`, { stakeId });
const redeem = (browser: Browser, stakeId: string, form: Record<string, string>) =>
  browser.post(redeemRoute.action, `/finance/investment/redeem/${stakeId}`, { stakeId, ...form }, { stakeId });

async function stake(browser: Browser, productId: string, amount: string) {
  const coin = productId.split("-")[0]!;
  const key = (await market(browser, `/finance/investment?coin=${coin}`)).products.find((p) => p.productId === productId)!.key;
  return browser.post(marketRoute.action, `/finance/investment?coin=${coin}`, { productId, amount, idempotencyKey: key });
}

describe("the staking pages", () => {
  it("show anyone the products of a coin, with a log-in link instead of the form", async () => {
    const visitor = new Browser();
    const first = await market(visitor);
    expect(first).toMatchObject({ coins: ["USDT", "BTC", "ETH", "SOL"], coin: "USDT", wallet: null, signedIn: false });
    expect(first.products.map((p) => [p.productId, p.termDays, p.yearlyRate, p.minAmount])).toEqual([
      ["USDT-0", 0, "0.05", "10"],
      ["USDT-7", 7, "0.08", "10"],
      ["USDT-30", 30, "0.12", "10"],
      ["USDT-90", 90, "0.18", "10"],
    ]);
    expect((await market(visitor, "/finance/investment?coin=BTC")).products.map((p) => p.productId)).toEqual(["BTC-0", "BTC-7", "BTC-30", "BTC-90"]);
    expect((await market(visitor, "/finance/investment?coin=NOPE")).coin).toBe("USDT");
    // The member pages and the form's post send a visitor to log in.
    expect((await visitor.get(mineRoute.loader, "/finance/investment/mine")).location).toBe("/user/login?redirectTo=%2Ffinance%2Finvestment%2Fmine");
    const posted = await visitor.post(marketRoute.action, "/finance/investment", { productId: "USDT-0", amount: "100", idempotencyKey: "visitor-key-0001" });
    expect(posted.status).toBe(302);
    expect(posted.location).toMatch(/^\/user\/login/);
  });

  it("stakes once per key, and refuses a figure that is not a number or below the minimum on the form, changing nothing", async () => {
    const browser = await staker();
    const page = await market(browser);
    expect(page).toMatchObject({ signedIn: true, wallet: { available: "1000" } });
    const key = page.products[0]!.key;

    const typo = await browser.post(marketRoute.action, "/finance/investment", { productId: "USDT-0", amount: "1o0", idempotencyKey: key });
    expect(typo.status).toBe(400);
    expect((typo.data as Reply).result.error?.amount).toEqual(["validation.number.invalid"]);
    const small = await browser.post(marketRoute.action, "/finance/investment", { productId: "USDT-0", amount: "5", idempotencyKey: key });
    expect(small.status).toBe(400);
    expect(small.data).toMatchObject({ productId: "USDT-0" });
    expect((small.data as Reply).result.error?.[""]?.map(readFormError)).toEqual([{ text: "The smallest stake is 10 USDT." }]);
    expect((small.data as Reply).key).not.toBe(key);
    expect((await mine(browser)).running).toEqual([]);
    expect((await market(browser)).wallet?.available).toBe("1000");

    const form = { productId: "USDT-0", amount: "100", idempotencyKey: (small.data as Reply).key };
    const staked = await browser.post(marketRoute.action, "/finance/investment", form);
    expect(staked.status).toBe(302);
    expect(staked.location).toMatch(/^\/finance\/investment\/mine\?stake=/);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "staking.staked", values: { amount: "100", coin: "USDT" } });
    // The same post again (a retry) stakes nothing more.
    await browser.post(marketRoute.action, "/finance/investment", form);
    const after = await mine(browser);
    expect(after.running).toHaveLength(1);
    expect(after.running[0]).toMatchObject({ productId: "USDT-0", principal: "100", maturesAt: null, status: "running" });
    expect(after.outstanding).toMatchObject([{ coin: "USDT", principal: "100", stakes: 1 }]);
    expect((await market(browser)).wallet?.available).toBe("900");
  });

  it("previews a flexible redemption of a part, pays it on confirmation, and keeps the records", async () => {
    const browser = await staker();
    await stake(browser, "USDT-0", "100");
    const running = (await mine(browser)).running[0]!;
    const whole = (await redeemPage(browser, running.stakeId)).data as Redeem;
    expect(whole.preview).toMatchObject({ principal: "100", early: false, closes: true, forfeited: "0" });
    const bad = (await redeemPage(browser, running.stakeId, "?amount=abc")).data as Redeem;
    expect(bad).toMatchObject({ preview: null, errors: ["validation.number.invalid"] });
    const tooMuch = (await redeemPage(browser, running.stakeId, "?amount=150")).data as Redeem;
    expect(tooMuch).toMatchObject({ preview: null, previewError: "This stake holds 100 USDT: redeem at most that." });
    const part = (await redeemPage(browser, running.stakeId, "?amount=40")).data as Redeem;
    expect(part).toMatchObject({ amount: "40", preview: { principal: "40", early: false, closes: false } });

    const done = await redeem(browser, running.stakeId, { amount: "40", idempotencyKey: part.key });
    expect(done).toMatchObject({ status: 302, location: "/finance/investment/mine" });
    expect(await browser.toast()).toMatchObject({ key: "staking.redeemed", values: { principal: "40", coin: "USDT" } });
    // A retry redeems nothing more.
    await redeem(browser, running.stakeId, { amount: "40", idempotencyKey: part.key });
    expect((await mine(browser)).running[0]).toMatchObject({ stakeId: running.stakeId, principal: "60" });

    const records = (await browser.get(recordsRoute.loader, "/finance/investment/records")).data as { page: { records: Array<{ kind: string }> } };
    expect(records.page.records.map((r) => r.kind)).toEqual(["redeemed", "invest"]);
    const invests = (await browser.get(recordsRoute.loader, "/finance/investment/records?kind=invest&coin=USDT")).data as {
      kind: string;
      coin: string;
      page: { records: Array<{ kind: string }> };
    };
    expect(invests).toMatchObject({ kind: "invest", coin: "USDT" });
    expect(invests.page.records.map((r) => r.kind)).toEqual(["invest"]);
    expect(((await browser.get(recordsRoute.loader, "/finance/investment/records?coin=BTC")).data as { page: { records: [] } }).page.records).toEqual([]);
  });

  it("keeps members apart: another member's stake is not found, and cannot be redeemed", async () => {
    const alice = await staker();
    await stake(alice, "USDT-30", "200");
    const stakeId = (await mine(alice)).running[0]!.stakeId;
    const bob = await staker();
    const seen = await redeemPage(bob, stakeId);
    expect(seen.status).toBe(404);
    const tried = await redeem(bob, stakeId, { idempotencyKey: "bob-redeem-key-01" });
    expect(tried.status).toBe(400);
    expect((tried.data as Reply).result.error?.[""]?.map(readFormError)).toEqual([{ text: "There is no such running stake." }]);
    expect((await mine(alice)).running).toMatchObject([{ stakeId, principal: "200" }]);
    expect((await mine(bob)).running).toEqual([]);
  });

  // Last: it credits interest two days ahead, for every stake of this file's exchange.
  it("shows a fixed stake's forfeited interest before an early redemption, and the ended stake after", async () => {
    const browser = await staker();
    await stake(browser, "USDT-7", "1000");
    const running = (await mine(browser)).running[0]!;
    expect(running.termInterest).not.toBeNull();
    await exchange.staking.tick(Date.now() + 2 * DAY_MS);
    const page = (await redeemPage(browser, running.stakeId)).data as Redeem;
    expect(page.preview).toMatchObject({ principal: "1000", interest: "0", payout: "1000", early: true, closes: true });
    expect(page.preview!.forfeited).toMatch(/^0\.\d*[1-9]/);
    // What is shown forfeited: the interest credited (ahead, here), or that since, the larger.
    expect(page.forfeited).toBe(page.preview!.forfeited);
    // A part of a fixed stake is not asked for: the amount field is the flexible stakes'.
    expect((await redeemPage(browser, running.stakeId, "?amount=10")).data).toMatchObject({ amount: null, preview: { principal: "1000" } });

    const done = await redeem(browser, running.stakeId, { idempotencyKey: page.key });
    expect(done).toMatchObject({ status: 302, location: "/finance/investment/mine" });
    expect(await browser.toast()).toMatchObject({ key: "staking.redeemed_early", values: { principal: "1,000", coin: "USDT" } });
    const after = await mine(browser);
    expect(after.running).toEqual([]);
    // Forfeited: all its interest up to the redemption, a moment after the preview (interest grows by the millisecond).
    expect(after.ended.records).toMatchObject([{ stakeId: running.stakeId, status: "early", interest: "0" }]);
    expect(Number(after.ended.records[0]!.forfeited)).toBeGreaterThanOrEqual(Number(page.preview!.forfeited));
    expect((await redeemPage(browser, running.stakeId)).status).toBe(404);
  });
});
