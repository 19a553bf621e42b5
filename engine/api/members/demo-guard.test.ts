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
    const [own] = await client.data(endpoints.devices, {}, { token: demo.token });
    const device = await client.call(endpoints.deleteDevice, { params: { deviceId: own!.id } }, { token: demo.token });
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

  it("lets a visitor of the demo member rename only their own session, and delete none", async () => {
    const first = await member("demo-rename@example.com");
    services.demoMemberId = first.id;
    const second = await client.data(endpoints.token, {
      body: { grant_type: "password", accountType: "email", email: "demo-rename@example.com", password: "secret123", deviceId: "rename-second" },
    });
    const [theirs] = await client.data(endpoints.devices, {}, { token: second.access_token });
    const [mine] = await client.data(endpoints.devices, {}, { token: first.token });
    // Even knowing the other visitor's session id, the first visitor cannot touch it: it answers as a missing one.
    const rename = await client.call(endpoints.updateDevice, { body: { id: theirs!.id, name: "<b>injected</b>" } }, { token: first.token });
    expect(rename.code).toBe(404);
    expect((await client.call(endpoints.deleteDevice, { params: { deviceId: theirs!.id } }, { token: first.token })).code).toBe(403);
    expect(await client.data(endpoints.devices, {}, { token: second.access_token })).toEqual([theirs]);
    // Their own session is theirs to name.
    expect((await client.call(endpoints.updateDevice, { body: { id: mine!.id, name: "My visit" } }, { token: first.token })).code).toBe(200);
    expect((await client.data(endpoints.devices, {}, { token: first.token }))[0]!.name).toBe("My visit");
    // The visitor's login log shows their own session only, and names it by no id.
    expect((await client.data(endpoints.loginLog, {}, { token: first.token })).records).toEqual([
      { ip: "", deviceName: "My visit", userAgent: mine!.userAgent, createdAt: mine!.createdAt },
    ]);
  });

  it("names sessions by random ids, not by a counter, and refuses an id that is not one", async () => {
    const { token } = await member("session-ids@example.com");
    for (const deviceId of ["ids-second", "ids-third"]) {
      await client.data(endpoints.token, {
        body: { grant_type: "password", accountType: "email", email: "session-ids@example.com", password: "secret123", deviceId },
      });
    }
    const ids = (await client.data(endpoints.devices, {}, { token })).map((d) => d.id);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
    // Those are not the sessions' keys; a key (an old-style numeric id) is refused as malformed.
    const keys = await store.db.selectFrom("device_session").select("id").where("public_id", "in", ids).execute();
    expect(keys).toHaveLength(3);
    for (const { id } of keys) expect(ids).not.toContain(id);
    const malformed = await client.call(endpoints.updateDevice, { body: { id: keys[0]!.id, name: "x" } }, { token });
    expect(malformed).toMatchObject({ code: 400, reason: "VALIDATION" });
    // Said in the caller's language (the field's message is a text key, not English words).
    expect(malformed.msg).toMatch(/id: must be the id of a device/);
    const german = await client.call(endpoints.deleteDevice, { params: { deviceId: keys[0]!.id } }, { token, lang: "de" });
    expect(german).toMatchObject({ code: 400, reason: "VALIDATION" });
    expect(german.msg).toMatch(/deviceId: muss die ID eines Geräts sein/);
    // Nor does the login log of a member (not the demo one) name its entries by the log's key, a
    // counter over every member's logins: it names them by nothing.
    const log = await client.data(endpoints.loginLog, {}, { token });
    expect(log.total).toBe(3);
    for (const entry of log.records) expect(Object.keys(entry).sort()).toEqual(["createdAt", "deviceName", "ip", "userAgent"]);
  });
});
