import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../../engine/api/context";
import { buildApp } from "../../../engine/app";
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN } from "../../../engine/testing/api-members";
import { openTestStore, type TestStore } from "../../../engine/testing/test-stores";
import type { StoredAuth } from "../account/auth.server";
import { COMMITTED_AT_KEY, commitSession, sessionStorage } from "../platform/session.server";
import { clearSiteCache } from "../platform/site.server";
import { memberSession } from "./member-session.server";

/**
 * Token refresh in the web tier (spec §4): when the token's age reaches the token time it is
 * refreshed, once for requests that arrive together and once for all the loaders and the action of
 * one request; nothing is remembered after (the cookie must reach the browser, issue 11); a failed
 * refresh only releases the lock and keeps the member as they were.
 */
let store: TestStore;
let engine: FastifyInstance;
let refreshCalls = 0;

beforeAll(async () => {
  store = await openTestStore("pglite");
  engine = await buildApp({
    store,
    apiHead: "mjkj-web",
    services: createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken: TEST_ADMIN_TOKEN }),
  });
  engine.addHook("preHandler", async (request) => {
    if (request.url.startsWith("/api/blade-auth/oauth/token") && (request.body as { grant_type?: string })?.grant_type === "refresh_token") refreshCalls++;
  });
  const address = await engine.listen({ host: "127.0.0.1", port: 0 });
  const { webEnv } = await import("../platform/env.server");
  webEnv().ENGINE_URL = address;
});
afterAll(async () => {
  await engine?.close();
  await store?.dispose();
});

async function loggedInCookie(email: string, issuedAt: number, expiresAt?: number, committedAt = Date.now()): Promise<{ cookie: string; auth: StoredAuth }> {
  const api = (path: string, init?: RequestInit) =>
    engine.inject({ method: (init?.method as "GET") ?? "GET", url: path, payload: init?.body as string, headers: { "content-type": "application/json" } });
  await api(`/api/mjkj-web/coin/open/send/email?email=${email}&type=register`);
  const mail = (await engine.inject({ method: "GET", url: `/api/mjkj-web/dev/mailbox?destination=${email}`, headers: ADMIN_HEADERS })).json().data[0];
  const code = mail.subject.match(/\d{6}/)[0];
  await api("/api/mjkj-web/coin/open/register", { method: "POST", body: JSON.stringify({ accountType: "email", email, code, password: "secret123" }) });
  const grant = (
    await api("/api/blade-auth/oauth/token", {
      method: "POST",
      body: JSON.stringify({ grant_type: "password", accountType: "email", email, password: "secret123", deviceId: "refresh-test-device" }),
    })
  ).json().data;
  const session = await sessionStorage.getSession();
  const auth: StoredAuth = {
    accessToken: grant.access_token,
    refreshToken: grant.refresh_token,
    issuedAt,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    member: { id: grant.user.id, uid: grant.user.uid, email, phone: null, areaCode: null, is_merchant: 0, avatar: grant.user.avatar },
  };
  session.set("auth", auth);
  session.set(COMMITTED_AT_KEY, committedAt);
  const setCookie = await sessionStorage.commitSession(session);
  return { cookie: setCookie.split(";")[0]!, auth };
}

const request = (cookie: string) => new Request("http://localhost/account/center/info", { headers: { cookie } });
/** The member of a request of its own (each with a load context of its own, as server.mjs makes them). */
const getMember = (cookie: string) => memberSession({ request: request(cookie), context: {} });

describe("token refresh", () => {
  it("keeps a young token as it is", async () => {
    const { cookie, auth } = await loggedInCookie("young@example.com", Date.now());
    refreshCalls = 0;
    const member = await getMember(cookie);
    expect(member?.auth.accessToken).toBe(auth.accessToken);
    expect(member?.refreshedCookie).toBeNull();
    expect(refreshCalls).toBe(0);
  });

  it("refreshes a token whose age reached the token time, once for concurrent requests", async () => {
    const { cookie, auth } = await loggedInCookie("old@example.com", Date.now() - 604_800_000);
    refreshCalls = 0;
    const results = await Promise.all([getMember(cookie), getMember(cookie), getMember(cookie)]);
    expect(refreshCalls).toBe(1);
    const tokens = new Set(results.map((r) => r!.auth.accessToken));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).not.toBe(auth.accessToken);
    for (const result of results) expect(result!.refreshedCookie).toMatch(/^__session=/);
  });

  it("goes by the expiry the engine answered (`expires_in`, the token time; decision 032), not the age alone", async () => {
    // Issued a week ago but given a longer life: kept.
    const long = await loggedInCookie("long-lived@example.com", Date.now() - 604_800_000, Date.now() + 3_600_000);
    refreshCalls = 0;
    expect((await getMember(long.cookie))?.refreshedCookie).toBeNull();
    expect(refreshCalls).toBe(0);
    // Issued just now with a short life (within the 10 s margin of its end): refreshed.
    const short = await loggedInCookie("short-lived@example.com", Date.now(), Date.now() + 5_000);
    const member = await getMember(short.cookie);
    expect(refreshCalls).toBe(1);
    expect(member?.auth.accessToken).not.toBe(short.auth.accessToken);
    expect(member?.auth.expiresAt).toBeGreaterThan(Date.now() + 604_000_000);
  });

  it("writes the cookie again after a day of use, so its life runs from the member's last day (decision 032)", async () => {
    const fresh = await loggedInCookie("cookie-fresh@example.com", Date.now(), Date.now() + 3_600_000);
    expect((await getMember(fresh.cookie))?.refreshedCookie).toBeNull();
    const dayOld = await loggedInCookie("cookie-day-old@example.com", Date.now(), Date.now() + 3_600_000, Date.now() - 25 * 3600_000);
    refreshCalls = 0;
    const member = await getMember(dayOld.cookie);
    expect(refreshCalls).toBe(0);
    expect(member?.auth.accessToken).toBe(dayOld.auth.accessToken);
    expect(member?.refreshedCookie).toMatch(/^__session=.*Max-Age=604800/);
  });

  it("refreshes once for the action and the loaders of one request", async () => {
    const { cookie } = await loggedInCookie("one-request@example.com", Date.now() - 604_800_000);
    const scope = { request: request(cookie), context: {} };
    refreshCalls = 0;
    const action = await memberSession(scope);
    // The loaders that run after the action get a Request of their own, with the same context.
    const loader = await memberSession({ request: request(cookie), context: scope.context });
    expect(refreshCalls).toBe(1);
    expect(loader).toBe(action);
  });

  it("remembers no refresh once answered: a later request with the old cookie asks the engine, which answers the same tokens for a few seconds", async () => {
    const { cookie, auth } = await loggedInCookie("stale@example.com", Date.now() - 604_800_000);
    const first = await getMember(cookie);
    expect(first?.refreshedCookie).toMatch(/^__session=/);
    expect(first?.auth.accessToken).not.toBe(auth.accessToken);
    // The browser did not get the new cookie yet (another tab, another web process): nothing kept
    // here, the engine is asked again and, within its grace (decision 019), answers the same grant.
    refreshCalls = 0;
    const second = await getMember(cookie);
    expect(refreshCalls).toBe(1);
    expect(second?.auth.accessToken).toBe(first?.auth.accessToken);
    expect(second?.refreshedCookie).toMatch(/^__session=/);
  });

  it("keeps the member when the refresh fails (only the lock is released)", async () => {
    const { cookie, auth } = await loggedInCookie("revoked@example.com", Date.now() - 604_800_000);
    await store.db.updateTable("device_session").set({ revoked_at: new Date() }).where("member_id", "=", auth.member.id).execute();
    const member = await getMember(cookie);
    expect(member?.auth.accessToken).toBe(auth.accessToken);
    expect(member?.refreshedCookie).toBeNull();
  });
});

describe("the session cookie's life (decision 032)", () => {
  it("lives the site's cookie time from each answer that writes it", async () => {
    const maxAgeOf = async () => {
      clearSiteCache();
      const cookie = await commitSession(new Request("http://localhost/"), await sessionStorage.getSession());
      return cookie.match(/Max-Age=(\d+)/)?.[1];
    };
    expect(await maxAgeOf()).toBe(String(7 * 24 * 3600));
    await store.db.updateTable("site_config").set({ config_value: "30" }).where("config_key", "=", "cookieDays").execute();
    try {
      expect(await maxAgeOf()).toBe(String(30 * 24 * 3600));
    } finally {
      await store.db.updateTable("site_config").set({ config_value: "7" }).where("config_key", "=", "cookieDays").execute();
      clearSiteCache();
    }
  });
});
