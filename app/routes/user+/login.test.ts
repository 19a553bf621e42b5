import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { ApiClient } from "../../../engine/testing/api-client";
import { webEnv } from "~/services/platform/env.server";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as loginRoute from "./login";
import * as logoutRoute from "./logout";

/** The login page's action against a real engine: the device cookie (decision 040). */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const LOGIN = "/user/login";
const loginForm = (email: string, password: string) => ({ accountType: "email", email, password, redirectTo: "/account/center/info" });

describe("device cookie", () => {
  it("is set at login: httpOnly, SameSite=Lax, for the login and registration pages, long-lived", async () => {
    const email = "cookie@example.com";
    await exchange.register(email);
    const answer = await new Browser().logIn(email, TEST_PASSWORD);
    const device = answer.headers.getSetCookie().find((cookie) => cookie.startsWith("__device="));
    expect(device).toMatch(/; Max-Age=15552000;/);
    expect(device).toMatch(/; Path=\/user;/);
    expect(device).toMatch(/; HttpOnly/);
    expect(device).toMatch(/; SameSite=Lax/);
  });

  it("lets the owner's browser back in while strangers' wrong passwords hold the account back for everyone else", async () => {
    const email = "owner@example.com";
    await exchange.register(email);
    const owner = new Browser();
    await owner.logIn(email, TEST_PASSWORD);
    expect((await owner.post(logoutRoute.action, "/user/logout", {})).status).toBe(302);
    await owner.toast();

    // Strangers guess from ever new addresses until the account's back-off holds them.
    const stranger = new ApiClient(exchange.app, {}, webEnv().API_HEAD);
    const codes: number[] = [];
    for (let i = 0; codes.at(-1) !== 429 && i < 30; i++) {
      const guess = await stranger.call(
        endpoints.token,
        { body: { grant_type: "password", accountType: "email", email, password: "wrongpass1", deviceId: `stranger-${i}` } },
        { ip: `10.66.0.${i}` },
      );
      codes.push(guess.code);
    }
    expect(codes.at(-1)).toBe(429);

    // A browser that never logged in is held back with the right password too…
    const newcomer = await new Browser().post(loginRoute.action, LOGIN, loginForm(email, TEST_PASSWORD));
    expect(newcomer.status).toBe(400);
    expect(JSON.stringify(newcomer.data)).toMatch(/Too many attempts/);
    // …but the owner's browser, with the device cookie of its earlier login, gets in.
    const back = await owner.post(loginRoute.action, LOGIN, loginForm(email, TEST_PASSWORD));
    expect(back.status).toBe(302);
    expect(back.location).toBe("/account/center/info");
    expect(back.headers.getSetCookie().some((cookie) => cookie.startsWith("__device="))).toBe(true);
  });
});
