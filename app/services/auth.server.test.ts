import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../engine/api/context";
import { buildApp } from "../../engine/app";
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN } from "../../engine/testing/api-members";
import { openTestStore, type TestStore } from "../../engine/testing/test-stores";
import { getMember, type StoredAuth } from "./auth.server";
import { sessionStorage } from "./session.server";

/**
 * Token refresh in the web tier (spec §4): when the token's age reaches the token time it is
 * refreshed, once per session even when requests arrive together; a failed refresh only releases
 * the lock and keeps the member as they were.
 */
let store: TestStore;
let engine: FastifyInstance;
let refreshCalls = 0;

beforeAll(async () => {
  store = await openTestStore("pglite");
  engine = await buildApp({ store, apiHead: "mjkj-web", services: createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken: TEST_ADMIN_TOKEN }) });
  engine.addHook("preHandler", async (request) => {
    if (request.url.startsWith("/api/blade-auth/oauth/token") && (request.body as { grant_type?: string })?.grant_type === "refresh_token") refreshCalls++;
  });
  const address = await engine.listen({ host: "127.0.0.1", port: 0 });
  const { webEnv } = await import("./env.server");
  webEnv().ENGINE_URL = address;
});
afterAll(async () => {
  await engine?.close();
  await store?.dispose();
});

async function loggedInCookie(email: string, issuedAt: number): Promise<{ cookie: string; auth: StoredAuth }> {
  const api = (path: string, init?: RequestInit) => engine.inject({ method: (init?.method as "GET") ?? "GET", url: path, payload: init?.body as string, headers: { "content-type": "application/json" } });
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
    member: { id: grant.user.id, uid: grant.user.uid, email, phone: null, areaCode: null, is_merchant: 0, avatar: grant.user.avatar },
  };
  session.set("auth", auth);
  const setCookie = await sessionStorage.commitSession(session);
  return { cookie: setCookie.split(";")[0]!, auth };
}

const request = (cookie: string) => new Request("http://localhost/account/center/info", { headers: { cookie } });

describe("token refresh", () => {
  it("keeps a young token as it is", async () => {
    const { cookie, auth } = await loggedInCookie("young@example.com", Date.now());
    refreshCalls = 0;
    const member = await getMember(request(cookie));
    expect(member?.auth.accessToken).toBe(auth.accessToken);
    expect([...member!.headers.keys()]).toEqual([]);
    expect(refreshCalls).toBe(0);
  });

  it("refreshes a token whose age reached the token time, once for concurrent requests", async () => {
    const { cookie, auth } = await loggedInCookie("old@example.com", Date.now() - 604_800_000);
    refreshCalls = 0;
    const results = await Promise.all([getMember(request(cookie)), getMember(request(cookie)), getMember(request(cookie))]);
    expect(refreshCalls).toBe(1);
    const tokens = new Set(results.map((r) => r!.auth.accessToken));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).not.toBe(auth.accessToken);
    for (const result of results) expect(result!.headers.get("set-cookie")).toMatch(/^__session=/);
  });

  it("keeps the member when the refresh fails (only the lock is released)", async () => {
    const { cookie, auth } = await loggedInCookie("revoked@example.com", Date.now() - 604_800_000);
    await store.db.updateTable("device_session").set({ revoked_at: new Date() }).where("member_id", "=", auth.member.id).execute();
    const member = await getMember(request(cookie));
    expect(member?.auth.accessToken).toBe(auth.accessToken);
    expect(member!.headers.get("set-cookie")).toBeNull();
  });
});
