import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../../testing/api-members";
import { openTestStore, type TestStore } from "../../testing/test-stores";
import { createServices, type ApiServices } from "../context";

const API = "/api/mjkj-web";

/** The demo member's login is public: its security settings stay as they are; other members' do not. */
describe("demo member guard", () => {
  let store: TestStore;
  let app: FastifyInstance;
  let services: ApiServices;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    services = createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken: TEST_ADMIN_TOKEN });
    app = await buildApp({ store, apiHead: "mjkj-web", services });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  async function member(email: string) {
    const { token } = await registerAndLogIn(app, email, `device-${email.replace(/\W/g, "")}`);
    const row = await store.db.selectFrom("member").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    return { id: row.id, headers: { "blade-auth": `bearer ${token}` } };
  }

  it("refuses password, anti-phishing code and device changes by the demo member only", async () => {
    const demo = await member("demo-guard@example.com");
    const other = await member("not-demo@example.com");
    services.demoMemberId = demo.id;
    const changePassword = (headers: Record<string, string>) =>
      app.inject({ method: "POST", url: "/api/blade-user/update-password", headers, payload: { oldPassword: "secret123", newPassword: "changed123", newPassword1: "changed123" } });

    const refused = await changePassword(demo.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toMatch(/demo member/);
    const anti = await app.inject({ method: "POST", url: `${API}/coin/member/antiCode`, headers: demo.headers, payload: { antiCode: "hello1", code: "123456" } });
    expect(anti.json().code).toBe(403);
    const device = await app.inject({ method: "POST", url: `${API}/coin/member/deleteDevice/1`, headers: demo.headers });
    expect(device.json().code).toBe(403);
    // The demo member still logs in with the public password; another member changes theirs.
    const login = await app.inject({ method: "POST", url: "/api/blade-auth/oauth/token", payload: { grant_type: "password", accountType: "email", email: "demo-guard@example.com", password: "secret123", deviceId: "device-again" } });
    expect(login.json().code).toBe(200);
    expect((await changePassword(other.headers)).json().code).toBe(200);
  });

  it("shows each visitor of the demo member only their own session and login, without addresses", async () => {
    const first = await member("demo-privacy@example.com");
    services.demoMemberId = first.id;
    const second = await app.inject({ method: "POST", url: "/api/blade-auth/oauth/token", payload: { grant_type: "password", accountType: "email", email: "demo-privacy@example.com", password: "secret123", deviceId: "second-visitor" } });
    expect(second.json().data.user.demo).toBe(true);
    const secondHeaders = { "blade-auth": `bearer ${second.json().data.access_token}` };
    for (const headers of [first.headers, secondHeaders]) {
      const devices = (await app.inject({ method: "GET", url: `${API}/coin/member/getLoginDevice`, headers })).json().data;
      expect(devices).toHaveLength(1);
      expect(devices[0]).toMatchObject({ current: true, ip: "" });
      const log = (await app.inject({ method: "GET", url: `${API}/coin/member/getLoginLog`, headers })).json().data;
      expect(log.records).toHaveLength(1);
      expect(log.records[0].ip).toBe("");
      const info = (await app.inject({ method: "GET", url: `${API}/coin/member/getMemberInfo`, headers })).json().data;
      expect(info.demo).toBe(true);
    }
    // Another member sees every session of theirs, with addresses.
    const other = await member("not-demo-privacy@example.com");
    await app.inject({ method: "POST", url: "/api/blade-auth/oauth/token", payload: { grant_type: "password", accountType: "email", email: "not-demo-privacy@example.com", password: "secret123", deviceId: "other-second" } });
    const devices = (await app.inject({ method: "GET", url: `${API}/coin/member/getLoginDevice`, headers: other.headers })).json().data;
    expect(devices).toHaveLength(2);
    expect(devices[0].ip).not.toBe("");
    expect((await app.inject({ method: "GET", url: `${API}/coin/member/getMemberInfo`, headers: other.headers })).json().data.demo).toBe(false);
  });
});
