import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as devicesRoute from "./device-management";
import * as infoRoute from "./info";

/** The account center's actions (devices, the support button) against a real engine. */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

let members = 0;
async function loggedInMember() {
  const email = `account-${++members}@example.com`;
  await exchange.register(email);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  return { email, browser };
}
const DEVICES = "/account/center/device-management";
const devicesOf = async (browser: Browser) => exchange.api.data(endpoints.devices, {}, await exchange.as(browser));

describe("device management", () => {
  it("renames this browser's device and says so", async () => {
    const { browser } = await loggedInMember();
    const [device] = await devicesOf(browser);
    const answer = await browser.post(devicesRoute.action, DEVICES, { intent: "rename", id: device!.id, name: "  Work laptop " });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(DEVICES);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "account.devices.renamed" });
    expect((await devicesOf(browser)).map((d) => d.name)).toEqual(["Work laptop"]);
    // The page shows the new name too.
    const page = await browser.get(devicesRoute.loader, DEVICES);
    expect(page.data).toMatchObject({ devices: [{ id: device!.id, name: "Work laptop", current: true }] });
  });

  it("refuses an empty name with an error toast and keeps the old one", async () => {
    const { browser } = await loggedInMember();
    const [device] = await devicesOf(browser);
    const answer = await browser.post(devicesRoute.action, DEVICES, { intent: "rename", id: device!.id, name: "   " });
    expect(answer.location).toBe(DEVICES);
    expect(await browser.toast()).toMatchObject({ type: "error", key: "validation.device_name" });
    expect((await devicesOf(browser))[0]!.name).toBe(device!.name);
  });

  it("refuses a device id that is not one with its own message, not the name's", async () => {
    const { browser } = await loggedInMember();
    const [device] = await devicesOf(browser);
    const answer = await browser.post(devicesRoute.action, DEVICES, { intent: "rename", id: "1", name: "Work laptop" });
    expect(answer.location).toBe(DEVICES);
    expect(await browser.toast()).toMatchObject({ type: "error", key: "validation.device_id" });
    expect((await devicesOf(browser))[0]!.name).toBe(device!.name);
  });

  it("deletes another device, which is logged out on its next request", async () => {
    const { email, browser: laptop } = await loggedInMember();
    const phone = new Browser();
    await phone.logIn(email, TEST_PASSWORD);
    const devices = await devicesOf(laptop);
    expect(devices).toHaveLength(2);
    const phoneDevice = devices.find((d) => !d.current)!;

    const answer = await laptop.post(devicesRoute.action, DEVICES, { intent: "delete", id: phoneDevice.id });
    expect(answer.location).toBe(DEVICES);
    expect(await laptop.toast()).toMatchObject({ type: "success", key: "account.devices.deleted" });
    expect((await devicesOf(laptop)).map((d) => d.id)).not.toContain(phoneDevice.id);

    const afterwards = await phone.get(devicesRoute.loader, DEVICES);
    expect(afterwards.status).toBe(302);
    expect(afterwards.location).toBe("/home/index");
    expect(await phone.toast()).toMatchObject({ key: "auth.session_expired" });
    const memberPage = await phone.get(devicesRoute.loader, DEVICES);
    expect(memberPage.location).toBe(`/user/login?redirectTo=${encodeURIComponent(DEVICES)}`);
  });

  it("refuses to delete a device of another member", async () => {
    const { browser: mallory } = await loggedInMember();
    const { browser: victim } = await loggedInMember();
    const [victimDevice] = await devicesOf(victim);
    const answer = await mallory.post(devicesRoute.action, DEVICES, { intent: "delete", id: victimDevice!.id });
    expect(answer.location).toBe(DEVICES);
    expect(await mallory.toast()).toMatchObject({ type: "error" });
    expect((await devicesOf(victim)).map((d) => d.id)).toEqual([victimDevice!.id]);
  });

  it("sends a visitor to the login page, coming back here", async () => {
    const answer = await new Browser().post(devicesRoute.action, DEVICES, { intent: "delete", id: "1" });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`/user/login?redirectTo=${encodeURIComponent(DEVICES)}`);
  });
});

describe("the support button", () => {
  it("records the member's support", async () => {
    const { browser } = await loggedInMember();
    const info = async () => exchange.api.data(endpoints.memberInfo, {}, await exchange.as(browser));
    expect((await info()).supported).toBe(0);
    const first = await browser.post(infoRoute.action, "/account/center/info", {});
    expect(first.location).toBe("/account/center/info");
    expect(await browser.toast()).toMatchObject({ type: "success", key: "account.info.support_success" });
    expect((await info()).supported).toBe(1);
  });
});
