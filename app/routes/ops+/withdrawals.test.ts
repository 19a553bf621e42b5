import type { SubmissionResult } from "@conform-to/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import type { WithdrawalView } from "#protocol/endpoints/withdrawals";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { sourceRequestHandler } from "~/testing/request-handler";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as historyRoute from "../account+/wallet+/history-withdrawal";
import * as withdrawalsRoute from "./withdrawals";

/** The console's withdrawal reviews (issue 29, decision 043) against a real engine: who sees, who decides, what a member reads. */
let exchange: TestExchange;
let finance: SignedInOperator;
let support: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  finance = await signInOperator(exchange, { email: "finance@ops.example", role: "finance" });
  support = await signInOperator(exchange, { email: "support@ops.example", role: "support" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/withdrawals";
const TRON = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";
const TRADE_PASSWORD = "246810";

interface ListPage {
  state: string;
  rows: Array<WithdrawalView & { uid: string }>;
  mayReview: boolean;
}
interface Refused {
  id: string;
  decision: string;
  result: SubmissionResult<string[]>;
}

let members = 0;
/** A member with USDT on their funding account and a transaction password, who asked to withdraw `amount` over TRC20. */
async function withdrawingMember(amount = "25") {
  const email = `withdrawing-${++members}@example.com`;
  const uid = await exchange.register(email);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  const member = await exchange.as(browser);
  await exchange.api.data(
    endpoints.adminDeposit,
    { body: { uid, coin: "USDT", account: "funding", amount: "1000", reference: `ops-wd-${uid}` } },
    exchange.operator,
  );
  await exchange.api.data(endpoints.sendEmailCode, { query: { email, type: "security" } }, member);
  await exchange.api.data(endpoints.tradePassword, { body: { tradePassword: TRADE_PASSWORD, code: await exchange.lastCode(email) } }, member);
  const destination = { coin: "USDT", network: "TRC20", address: TRON, amount };
  await exchange.api.data(endpoints.sendEmailCode, { query: { email, type: "withdraw", ...destination } }, member);
  const { id } = await exchange.api.data(
    endpoints.withdraw,
    { body: { ...destination, tradePassword: TRADE_PASSWORD, code: await exchange.lastCode(email), idempotencyKey: `ops-wd-${uid}-${amount}` } },
    member,
  );
  const mine = async () => (await exchange.api.data(endpoints.myWithdrawals, { query: {} }, member)).records.find((w) => w.id === id)!;
  return { uid, id, browser, mine };
}

const listOf = async (operator: SignedInOperator, url = PAGE) => {
  const page = await operator.browser.get(withdrawalsRoute.loader, url);
  expect(page.status).toBe(200);
  return page.data as ListPage;
};

describe("the withdrawal reviews page", () => {
  it("shows a finance operator the review queue; a rejection needs a reason, and its member reads it", async () => {
    const member = await withdrawingMember("25");
    const page = await listOf(finance);
    expect(page).toMatchObject({ state: "review", mayReview: true });
    expect(page.rows.find((row) => row.id === member.id)).toMatchObject({
      uid: member.uid,
      coin: "USDT",
      network: "TRC20",
      address: TRON,
      amount: "25",
      state: "review",
    });

    const noReason = await finance.browser.post(withdrawalsRoute.action, PAGE, { id: member.id, decision: "reject", reason: "" });
    expect(noReason.status).toBe(400);
    expect(noReason.data as Refused).toMatchObject({ id: member.id, decision: "reject", result: { error: { reason: ["ops.errors.reason"] } } });
    expect((await member.mine()).state).toBe("review");

    const answer = await finance.browser.post(withdrawalsRoute.action, PAGE, {
      id: member.id,
      decision: "reject",
      reason: "The address belongs to a sanctioned service",
    });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(PAGE);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await finance.browser.toast()).toMatchObject({ type: "success", key: "ops.withdrawals.rejected", values: { id: member.id } });
    expect(await member.mine()).toMatchObject({ state: "rejected", reason: "The address belongs to a sanctioned service" });
    // The member's own withdrawal history shows the reason.
    const history = await member.browser.get(historyRoute.loader, "/account/wallet/history-withdrawal");
    const record = (history.data as { page: { records: WithdrawalView[] } }).page.records.find((w) => w.id === member.id);
    expect(record).toMatchObject({ state: "rejected", reason: "The address belongs to a sanctioned service" });

    // Gone from the queue, listed under "rejected" with its reason; an unknown state is the queue.
    expect((await listOf(finance)).rows.map((row) => row.id)).not.toContain(member.id);
    expect((await listOf(finance, `${PAGE}?state=rejected`)).rows.find((row) => row.id === member.id)).toMatchObject({
      reason: "The address belongs to a sanctioned service",
    });
    expect((await listOf(finance, `${PAGE}?state=<script>`)).state).toBe("review");
  });

  it("answers a second decision on the same withdrawal with 'decided', and changes nothing", async () => {
    const member = await withdrawingMember("30");
    const approved = await finance.browser.post(withdrawalsRoute.action, PAGE, { id: member.id, decision: "approve" });
    expect(approved.status).toBe(302);
    expect(await finance.browser.toast()).toMatchObject({ type: "success", key: "ops.withdrawals.approved" });
    expect((await member.mine()).state).toBe("approved");
    const again = await finance.browser.post(withdrawalsRoute.action, PAGE, { id: member.id, decision: "reject", reason: "Too late" });
    expect(again.status).toBe(409);
    expect((again.data as Refused).result.error?.[""]).toEqual(["ops.errors.decided"]);
    expect(await member.mine()).toMatchObject({ state: "approved", reason: null });
  });

  it("shows a support operator the queue without the forms; a decision posted anyway is the engine's 403 and changes nothing", async () => {
    const member = await withdrawingMember("35");
    const page = await listOf(support);
    expect(page.mayReview).toBe(false);
    expect(page.rows.map((row) => row.id)).toContain(member.id);
    const answer = await support.browser.post(withdrawalsRoute.action, PAGE, { id: member.id, decision: "approve" });
    expect(answer.status).toBe(403);
    expect((answer.data as Refused).result.error?.[""]).toEqual(["ops.errors.role_denied"]);
    expect((await member.mine()).state).toBe("review");
  });

  it("answers bad input with a translated error and changes nothing: a forged or unknown id, a huge reason", async () => {
    const member = await withdrawingMember("40");
    const post = (form: Record<string, string>) => finance.browser.post(withdrawalsRoute.action, PAGE, form);
    const errorsOf = (data: unknown) => (data as Refused).result.error;
    const forged = await post({ id: "1; drop table", decision: "approve" });
    expect(forged.status).toBe(400);
    expect(errorsOf(forged.data)).toEqual({ "": ["ops.errors.item"] });
    const unknown = await post({ id: "999999999999", decision: "approve" });
    expect(unknown.status).toBe(404);
    expect(errorsOf(unknown.data)).toEqual({ "": ["ops.errors.item"] });
    const huge = await post({ id: member.id, decision: "reject", reason: "y".repeat(301) });
    expect(huge.status).toBe(400);
    expect(errorsOf(huge.data)).toEqual({ reason: ["ops.errors.reason_long"] });
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(errorsOf(missing.data)?.[""]).toEqual(expect.arrayContaining(["ops.errors.item"]));
    expect((await member.mine()).state).toBe("review");
  });

  it("answers data requests (`?_data=`) without a server error, whatever the state asked for", async () => {
    const handle = await sourceRequestHandler();
    for (const url of [PAGE, `${PAGE}?state=completed`, `${PAGE}?state=%00`]) {
      const target = `http://localhost${url}${url.includes("?") ? "&" : "?"}_data=${encodeURIComponent("routes/ops+/withdrawals")}`;
      const answer = await handle(new Request(target, { headers: { cookie: finance.cookie.split(";")[0]! } }));
      expect([url, answer.status]).toEqual([url, 200]);
    }
  });
});
