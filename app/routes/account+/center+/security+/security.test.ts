import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as securityRoute from "./_index";
import * as antiCodeRoute from "./setting.anti-code";
import * as tradePasswordRoute from "../trade-pwd";

/**
 * The security settings protected by an e-mailed code (anti-phishing code, trade password), against
 * a real engine: the code is sent through the page's "send code" button and read from the engine's
 * dev mailbox, as a member would read the e-mail.
 */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

let members = 0;
async function loggedInMember() {
  const email = `security-${++members}@example.com`;
  await exchange.register(email);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  const info = async () => exchange.api.data(endpoints.memberInfo, {}, await exchange.as(browser));
  return { email, browser, info };
}

/** Conform's reply as the page reads it back. */
interface FormReply {
  result: { initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> | null };
  sentTo?: string | null;
}
const replyOf = (data: unknown) => data as FormReply;

const ANTI_CODE = "/account/center/security/setting/anti-code";
const TRADE_PASSWORD = "/account/center/trade-pwd";

describe("the security center's login log", () => {
  it("shows the member's logins without an id (the log's key counts every member's logins)", async () => {
    const { browser } = await loggedInMember();
    const page = await browser.get(securityRoute.loader, "/account/center/security");
    expect(page.status).toBe(200);
    const { log } = page.data as { log: { records: Array<Record<string, unknown>>; total: number } };
    expect(log.total).toBe(1);
    expect(log.records).toEqual([{ ip: expect.any(String), deviceName: expect.any(String), userAgent: expect.any(String), createdAt: expect.any(String) }]);
  });
});

describe("the anti-phishing code", () => {
  it("sends a code to the member's e-mail, then saves the anti-phishing code with it", async () => {
    const { email, browser, info } = await loggedInMember();
    const sent = await browser.post(antiCodeRoute.action, ANTI_CODE, { intent: "send-code", antiCode: "Castle42", code: "" });
    expect(sent.status).toBe(200);
    // What was typed stays in the form while the member fetches the code.
    expect(replyOf(sent.data).result.initialValue).toMatchObject({ antiCode: "Castle42" });
    expect(replyOf(sent.data).sentTo).toContain(email.slice(email.indexOf("@")));
    const code = await exchange.lastCode(email);

    const saved = await browser.post(antiCodeRoute.action, ANTI_CODE, { intent: "save", antiCode: "Castle42", code });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/account/center/security");
    expect(await browser.toast()).toMatchObject({ type: "success", key: "account.anti_code.saved" });
    expect((await info()).antiCodeSet).toBe(true);
  });

  it("refuses a wrong code: 400, the typed anti-phishing code kept, the code not echoed, nothing saved", async () => {
    const { email, browser, info } = await loggedInMember();
    await browser.post(antiCodeRoute.action, ANTI_CODE, { intent: "send-code" });
    const code = await exchange.lastCode(email);
    const wrong = code === "000000" ? "111111" : "000000";

    const refused = await browser.post(antiCodeRoute.action, ANTI_CODE, { intent: "save", antiCode: "Castle42", code: wrong });
    expect(refused.status).toBe(400);
    const reply = replyOf(refused.data).result;
    expect(reply.error?.[""]).toHaveLength(1);
    expect(reply.initialValue).toMatchObject({ antiCode: "Castle42" });
    expect(reply.initialValue).not.toHaveProperty("code");
    expect((await info()).antiCodeSet).toBe(false);
  });

  it("refuses a malformed anti-phishing code with a field error", async () => {
    const { browser, info } = await loggedInMember();
    const refused = await browser.post(antiCodeRoute.action, ANTI_CODE, { intent: "save", antiCode: "a!", code: "123456" });
    expect(refused.status).toBe(400);
    expect(replyOf(refused.data).result.error).toMatchObject({ antiCode: ["validation.anti_code"] });
    expect((await info()).antiCodeSet).toBe(false);
  });
});

describe("the trade password", () => {
  it("is set with the e-mailed code", async () => {
    const { email, browser, info } = await loggedInMember();
    expect((await info()).tradePasswordSet).toBe(false);
    expect((await browser.post(tradePasswordRoute.action, TRADE_PASSWORD, { intent: "send-code" })).status).toBe(200);
    const code = await exchange.lastCode(email);

    const saved = await browser.post(tradePasswordRoute.action, TRADE_PASSWORD, { tradePassword: "246810", tradePassword1: "246810", code });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/account/center/security");
    expect(await browser.toast()).toMatchObject({ type: "success", key: "account.trade_pwd.saved" });
    expect((await info()).tradePasswordSet).toBe(true);
  });

  it("refuses two different passwords without sending either back", async () => {
    const { email, browser, info } = await loggedInMember();
    await browser.post(tradePasswordRoute.action, TRADE_PASSWORD, { intent: "send-code" });
    const code = await exchange.lastCode(email);

    const refused = await browser.post(tradePasswordRoute.action, TRADE_PASSWORD, { tradePassword: "246810", tradePassword1: "246811", code });
    expect(refused.status).toBe(400);
    const reply = replyOf(refused.data).result;
    expect(reply.error).toMatchObject({ tradePassword1: ["validation.password_mismatch"] });
    expect(JSON.stringify(reply)).not.toContain("24681");
    expect((await info()).tradePasswordSet).toBe(false);
  });
});
