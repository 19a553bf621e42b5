import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../../protocol/endpoints";
import { buildApp } from "../../app";
import { ApiClient } from "../../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../../testing/api-members";
import { openTestStore, type TestStore } from "../../testing/test-stores";
import { createServices, type ApiServices } from "../context";

/** The demo member's login is public: its security settings stay as they are; other members' do not. */
describe("demo member guard", () => {
  let store: TestStore;
  let app: FastifyInstance;
  let services: ApiServices;
  let client: ApiClient;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    services = createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken: TEST_ADMIN_TOKEN });
    app = await buildApp({ store, apiHead: "mjkj-web", services });
    await app.ready();
    client = new ApiClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  async function member(email: string) {
    const { token } = await registerAndLogIn(app, email, `device-${email.replace(/\W/g, "")}`);
    const row = await store.db.selectFrom("member").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    return { id: row.id, token };
  }

  it("refuses password, anti-phishing code and device changes by the demo member only", async () => {
    const demo = await member("demo-guard@example.com");
    const other = await member("not-demo@example.com");
    services.demoMemberId = demo.id;
    const changePassword = (token: string) =>
      client.call(endpoints.updatePassword, { body: { oldPassword: "secret123", newPassword: "changed123", newPassword1: "changed123" } }, { token });

    const refused = await changePassword(demo.token);
    expect(refused.status).toBe(403);
    expect(refused.msg).toMatch(/demo member/);
    const anti = await client.call(endpoints.antiCode, { body: { antiCode: "hello1", code: "123456" } }, { token: demo.token });
    expect(anti.code).toBe(403);
    const device = await client.call(endpoints.deleteDevice, { params: { deviceId: "1" } }, { token: demo.token });
    expect(device.code).toBe(403);
    // The demo member still logs in with the public password; another member changes theirs.
    const login = await client.call(endpoints.token, {
      body: { grant_type: "password", accountType: "email", email: "demo-guard@example.com", password: "secret123", deviceId: "device-again" },
    });
    expect(login.code).toBe(200);
    expect((await changePassword(other.token)).code).toBe(200);
  });

  it("takes no support request from the demo member (it would be every visitor's)", async () => {
    const demo = await member("demo-support@example.com");
    services.demoMemberId = demo.id;
    const refused = await client.call(endpoints.support, {}, { token: demo.token });
    expect(refused.code).toBe(403);
    expect(refused.msg).toMatch(/demo member cannot ask for priority support/);
    expect((await client.data(endpoints.memberInfo, {}, { token: demo.token })).supported).toBe(0);
  });

  it("shows each visitor of the demo member only their own session and login, without addresses", async () => {
    const first = await member("demo-privacy@example.com");
    services.demoMemberId = first.id;
    const second = await client.data(endpoints.token, {
      body: { grant_type: "password", accountType: "email", email: "demo-privacy@example.com", password: "secret123", deviceId: "second-visitor" },
    });
    expect(second.user.demo).toBe(true);
    for (const token of [first.token, second.access_token]) {
      const devices = await client.data(endpoints.devices, {}, { token });
      expect(devices).toHaveLength(1);
      expect(devices[0]).toMatchObject({ current: true, ip: "" });
      const log = await client.data(endpoints.loginLog, {}, { token });
      expect(log.records).toHaveLength(1);
      expect(log.records[0]!.ip).toBe("");
      const info = await client.data(endpoints.memberInfo, {}, { token });
      expect(info.demo).toBe(true);
    }
    // Another member sees every session of theirs, with addresses.
    const other = await member("not-demo-privacy@example.com");
    await client.call(endpoints.token, {
      body: { grant_type: "password", accountType: "email", email: "not-demo-privacy@example.com", password: "secret123", deviceId: "other-second" },
    });
    const devices = await client.data(endpoints.devices, {}, { token: other.token });
    expect(devices).toHaveLength(2);
    expect(devices[0]!.ip).not.toBe("");
    expect((await client.data(endpoints.memberInfo, {}, { token: other.token })).demo).toBe(false);
  });
});
