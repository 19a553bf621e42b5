import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as addressRoute from "./address";

/** The address book page's forms against a real engine, as a browser without JavaScript posts them. */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const PAGE = "/account/wallet/address";
const TRON = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";

let members = 0;
async function loggedInMember() {
  const email = `book-${++members}@example.com`;
  await exchange.register(email);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  const book = async () => exchange.api.data(endpoints.addressBook, { query: {} }, await exchange.as(browser));
  return { email, browser, book };
}

interface Reply {
  form?: string;
  result: { initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> | null };
  sentTo?: string | null;
}
const replyOf = (data: unknown) => data as Reply;

describe("the address book page", () => {
  it("offers the coins and networks open for withdrawals, and an empty book", async () => {
    const { browser } = await loggedInMember();
    const page = await browser.get(addressRoute.loader, PAGE);
    const data = page.data as { choices: Array<{ value: string }>; book: { whitelist: boolean; addresses: unknown[] }; googleBound: boolean };
    expect(data.choices.map((c) => c.value)).toEqual(expect.arrayContaining(["BTC:BTC", "USDT:ERC20", "USDT:TRC20", "XRP:XRP"]));
    expect(data.choices.map((c) => c.value)).not.toContain("USDT:SOL");
    expect(data).toMatchObject({ book: { whitelist: false, addresses: [] }, googleBound: false });
  });

  it("saves an address with a toast, then deletes it", async () => {
    const { browser, book } = await loggedInMember();
    const saved = await browser.post(addressRoute.action, PAGE, {
      intent: "add",
      coinNetwork: "USDT:TRC20",
      address: ` ${TRON} `,
      memo: "",
      label: "Cold wallet",
    });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(PAGE);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "wallet.address_book.saved", values: { label: "Cold wallet" } });
    const [entry] = (await book()).addresses;
    expect(entry).toMatchObject({ coin: "USDT", network: "TRC20", address: TRON, memo: null, label: "Cold wallet" });

    const deleted = await browser.post(addressRoute.action, PAGE, { intent: "delete", id: entry!.id });
    expect(deleted.location).toBe(PAGE);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "wallet.address_book.deleted" });
    expect((await book()).addresses).toEqual([]);
  });

  it("refuses bad input on the add form, the typed values kept, nothing saved", async () => {
    const { browser, book } = await loggedInMember();
    const invalid = await browser.post(addressRoute.action, PAGE, { intent: "add", coinNetwork: "USDT:TRC20", address: "T!", label: "" });
    expect(invalid.status).toBe(400);
    expect(replyOf(invalid.data)).toMatchObject({ form: "add", result: { error: { address: ["validation.address"], label: ["validation.label"] } } });

    // The format is the engine's to check: its words come back as the form's error.
    const wrong = await browser.post(addressRoute.action, PAGE, { intent: "add", coinNetwork: "USDT:TRC20", address: TRON.slice(0, -1) + "M", label: "Typo" });
    expect(wrong.status).toBe(400);
    expect(replyOf(wrong.data).result.error?.[""]).toEqual(["text:This is not a valid TRC20 address."]);
    expect(replyOf(wrong.data).result.initialValue).toMatchObject({ label: "Typo" });
    expect((await book()).addresses).toEqual([]);
  });

  it("does not delete another member's address", async () => {
    const owner = await loggedInMember();
    await owner.browser.post(addressRoute.action, PAGE, { intent: "add", coinNetwork: "USDT:TRC20", address: TRON, label: "Mine" });
    const [entry] = (await owner.book()).addresses;
    const other = await loggedInMember();
    const answer = await other.browser.post(addressRoute.action, PAGE, { intent: "delete", id: entry!.id });
    expect(answer.location).toBe(PAGE);
    expect(await other.browser.toast()).toMatchObject({ type: "error", message: "No such saved address." });
    expect((await owner.book()).addresses).toHaveLength(1);
  });

  it("turns the whitelist on with a code sent from the page, and refuses a wrong one", async () => {
    const { email, browser, book } = await loggedInMember();
    const sent = await browser.post(addressRoute.action, PAGE, { intent: "send-code", enabled: "on", code: "" });
    expect(sent.status).toBe(200);
    expect(replyOf(sent.data).sentTo).toContain(email.slice(email.indexOf("@")));
    const code = await exchange.lastCode(email);

    const refused = await browser.post(addressRoute.action, PAGE, { intent: "whitelist", enabled: "on", code: code === "000000" ? "111111" : "000000" });
    expect(refused.status).toBe(400);
    expect(replyOf(refused.data).result.error?.[""]).toEqual(["text:The verification code is wrong."]);
    expect(replyOf(refused.data).result.initialValue).not.toHaveProperty("code");
    expect((await book()).whitelist).toBe(false);

    const on = await browser.post(addressRoute.action, PAGE, { intent: "whitelist", enabled: "on", code });
    expect(on.location).toBe(PAGE);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "wallet.address_book.whitelist_turned_on" });
    expect((await book()).whitelist).toBe(true);
  });
});
