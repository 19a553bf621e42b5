import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { registerAndLogIn } from "../../testing/api-members";
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
    services = createServices({ devMailbox: true, siteName: async () => "Meridian Exchange" });
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
});
