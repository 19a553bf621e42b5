import type { SubmissionResult } from "@conform-to/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as depositsRoute from "./deposits";

/** The console's deposits page (issue 29) against a real engine: who reads, who credits, once per reference. */
let exchange: TestExchange;
let finance: SignedInOperator;
let support: SignedInOperator;
let markets: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  finance = await signInOperator(exchange, { email: "finance-d@ops.example", role: "finance" });
  support = await signInOperator(exchange, { email: "support-d@ops.example", role: "support" });
  markets = await signInOperator(exchange, { email: "markets-d@ops.example", role: "markets" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/deposits";
type Refused = { result: SubmissionResult<string[]> };

describe("the deposits page", () => {
  it("lists to readers, refuses a role without deposits, and says which filter cannot be one", async () => {
    const page = await support.browser.get(depositsRoute.loader, PAGE);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ mayCredit: false, reference: null, errors: {} });
    expect((await markets.browser.get(depositsRoute.loader, PAGE)).status).toBe(403);
    const bad = await support.browser.get(depositsRoute.loader, `${PAGE}?uid=12&state=lost&coin=NOPE`);
    expect(bad.status).toBe(200);
    expect(bad.data).toMatchObject({
      errors: { uid: "ops.errors.member", state: "ops.errors.invalid", coin: "ops.deposits.coin_required" },
      page: { rows: [], next: null },
    });
  });

  it("credits a member once per reference; bad amounts, a stranger and a reader are refused with their messages", async () => {
    const email = "deposit-credit@example.com";
    const uid = await exchange.register(email);
    const loaded = await finance.browser.get(depositsRoute.loader, PAGE);
    const reference = (loaded.data as { reference: string }).reference;
    expect(reference).toMatch(/^ops-/);
    const post = (operator: SignedInOperator, form: Record<string, string>) =>
      operator.browser.post(depositsRoute.action, PAGE, { uid, coin: "USDT", account: "funding", amount: "125.5", reference, ...form });

    const refusals: Array<[Record<string, string>, string, string]> = [
      [{ amount: "1,5" }, "amount", "validation.number"],
      [{ amount: "0" }, "amount", "validation.number.zero"],
      [{ amount: "0.0000000001" }, "amount", "ops.deposits.precision"],
      [{ uid: "99999990" }, "uid", "ops.deposits.member_unknown"],
      [{ coin: "ZZZ" }, "coin", "ops.deposits.coin_required"],
      [{ reference: "x" }, "reference", "ops.deposits.reference"],
    ];
    for (const [form, field, key] of refusals) {
      const answer = await post(finance, form);
      expect([form, answer.status]).toEqual([form, 400]);
      expect((answer.data as Refused).result.error?.[field]?.[0]).toContain(key);
    }
    expect((await post(support, {})).status).toBe(403);

    const done = await post(finance, {});
    expect(done.status).toBe(302);
    expect(await finance.browser.toast()).toMatchObject({ type: "success", key: "ops.deposits.credited", values: { amount: "125.5", coin: "USDT", uid } });
    const twice = await post(finance, {});
    expect(twice.status).toBe(409);
    expect((twice.data as Refused).result.error?.[""]).toEqual(["ops.deposits.credited_already"]);

    const member = new Browser();
    await member.logIn(email, TEST_PASSWORD);
    const funding = await exchange.api.data(endpoints.balances, { query: { type: "1" } }, await exchange.as(member));
    expect(funding.find((coin) => coin.coin === "USDT")?.available).toBe("125.5");
  });
});
