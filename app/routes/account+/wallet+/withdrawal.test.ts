import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as withdrawalRoute from "./withdrawal";

/** The withdrawal page's "send code" button against a real engine, as a browser without JavaScript posts it. */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const PAGE = "/account/wallet/withdrawal";
const TRON = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";
const FORM = { intent: "send-code", coin: "USDT", network: "TRC20", address: TRON, amount: "12.50", tradePassword: "", code: "" };

interface Reply {
  result: { error?: Record<string, string[] | null> | null };
  sentAt?: number | null;
  sentTo?: string | null;
  resendAfter?: number | null;
}
const replyOf = (data: unknown) => data as Reply;

let members = 0;
async function loggedInMember() {
  const email = `withdraw-code-${++members}@example.com`;
  await exchange.register(email);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  return { email, browser };
}

describe("the withdrawal page's code", () => {
  it("asks for the amount and address before sending a code", async () => {
    const { browser } = await loggedInMember();
    const refused = await browser.post(withdrawalRoute.action, PAGE, { ...FORM, amount: "", address: "" });
    expect(refused.status).toBe(400);
    expect(replyOf(refused.data).result.error).toMatchObject({ amount: ["wallet.withdraw.amount_required"], address: ["wallet.withdraw.address_required"] });
    expect(replyOf(refused.data).sentTo).toBeNull();
  });

  it("sends a code for the withdrawal as filled in, its mail naming it; asked again too soon, says the seconds left", async () => {
    const { email, browser } = await loggedInMember();
    const sent = await browser.post(withdrawalRoute.action, PAGE, FORM);
    expect(sent.status).toBe(200);
    expect(replyOf(sent.data).sentTo).toBe(email);
    const [mail] = await exchange.api.data(endpoints.devMailbox, { query: { destination: email } }, exchange.operator);
    expect(mail!.body).toContain("You are confirming a withdrawal of 12.5 USDT on the TRC20 network to the address TNPeea…YqeL.");

    const resendMs = exchange.services.codeResendMs;
    exchange.services.codeResendMs = 60_000;
    try {
      const again = await browser.post(withdrawalRoute.action, PAGE, FORM);
      expect(again.status).toBe(400);
      // Without JavaScript the message says how long; with it, the button counts that down.
      expect(JSON.stringify(replyOf(again.data).result.error)).toMatch(/Please wait (59|60) seconds/);
      expect(replyOf(again.data).resendAfter).toBeGreaterThanOrEqual(59);
      expect(replyOf(again.data).sentAt).toEqual(expect.any(Number));
    } finally {
      exchange.services.codeResendMs = resendMs;
    }
  });

  it("sends the destination tag with the code's withdrawal (XRP), its mail naming it; a network without tags sends none", async () => {
    const { email, browser } = await loggedInMember();
    const XRP = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
    const sent = await browser.post(withdrawalRoute.action, PAGE, { ...FORM, coin: "XRP", network: "XRP", address: XRP, memo: "1001", amount: "25" });
    expect(sent.status).toBe(200);
    const [mail] = await exchange.api.data(endpoints.devMailbox, { query: { destination: email } }, exchange.operator);
    expect(mail!.body).toContain("to the address rHb9CJ…tyTh.\nTag / memo: 1001\n");

    const other = await loggedInMember();
    expect((await other.browser.post(withdrawalRoute.action, PAGE, { ...FORM, memo: "1001" })).status).toBe(200);
    const [tronMail] = await exchange.api.data(endpoints.devMailbox, { query: { destination: other.email } }, exchange.operator);
    expect(tronMail!.body).toContain("to the address TNPeea…YqeL.");
    expect(tronMail!.body).not.toMatch(/Tag/);
  });
});
