import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../../protocol/endpoints";
import { memberEndpoints } from "../../../protocol/endpoints/member";
import { buildApp } from "../../app";
import { REFRESH_GRACE_MS } from "../../members/refresh-grace";
import { totpCode } from "../../core/members/totp";
import { ApiClient } from "../../testing/api-client";
import { OPERATOR, TEST_ADMIN_TOKEN } from "../../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../../testing/test-stores";
import { createServices } from "../context";

describe.each(testStoreKinds())("members on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let client: ApiClient;
  let clock = Date.parse("2026-11-22T08:00:00Z");

  beforeAll(async () => {
    store = await openTestStore(kind);
    const services = createServices({ devMailbox: true, now: () => clock, siteName: async () => "Meridian Exchange", adminToken: TEST_ADMIN_TOKEN });
    app = await buildApp({ store, apiHead: "mjkj-web", services });
    await app.ready();
    client = new ApiClient(app, { ip: "10.1.1.1", headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" } });
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const lastCode = async (destination: string) => {
    const mail = (await client.data(endpoints.devMailbox, { query: { destination } }, OPERATOR))[0]!;
    return { code: mail.subject.match(/\d{6}/)![0], mail };
  };
  const advance = (ms: number) => (clock += ms);
  const sendEmailCode = (email: string, type: "register" | "reset" | "security" | "bind", token?: string) =>
    client.call(endpoints.sendEmailCode, { query: { email, type } }, { token });
  const memberInfo = (token: string) => client.call(endpoints.memberInfo, {}, { token });

  async function registerByEmail(email: string, password = "secret123") {
    expect((await sendEmailCode(email, "register")).code).toBe(200);
    const { code } = await lastCode(email);
    const res = await client.call(endpoints.register, { body: { accountType: "email", email, code, password } });
    expect(res.code, res.msg).toBe(200);
    return res.data!.uid;
  }
  async function login(email: string, password = "secret123", extra: { googleCode?: string; deviceCookie?: string } = {}, ip = "10.1.1.1") {
    // The web tier's login form adds the spec's tenant query; the engine ignores it.
    return client.callUnchecked(
      endpoints.token,
      {
        query: { tenantId: "000000", scope: "all", type: "email" },
        body: { grant_type: "password", accountType: "email", email, password, deviceId: `device-${Math.random().toString(36).slice(2, 12)}`, ...extra },
      },
      { ip },
    );
  }
  const tokenOf = async (email: string, password = "secret123", extra: { googleCode?: string } = {}) =>
    (await login(email, password, extra)).data!.access_token;

  it("registers by e-mail with a code from the outbox, then logs in", async () => {
    const uid = await registerByEmail("alice@example.com");
    expect(uid).toMatch(/^\d{8}$/);
    const res = await login("alice@example.com");
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ token_type: "bearer", expires_in: 604800, user: { uid, email: "alice@example.com", avatar: "/images/avatar.svg" } });
    const info = await memberInfo(res.data!.access_token);
    expect(info.data).toMatchObject({ uid, supported: 0, googleBound: false });
    expect(JSON.stringify(info.data)).not.toMatch(/argon2|hash/);
  });

  it("registers by phone with an area code", async () => {
    await client.call(endpoints.sendSmsCode, { query: { areaCode: "49", phone: "15112345678", type: "register" } });
    const { code } = await lastCode("+49 15112345678");
    const res = await client.call(endpoints.register, { body: { accountType: "phone", areaCode: "49", phone: "15112345678", code, password: "phone1234" } });
    expect(res.code).toBe(200);
    const token = await client.call(endpoints.token, {
      body: { grant_type: "password", accountType: "phone", areaCode: "49", phone: "15112345678", password: "phone1234", deviceId: "phone-device-1" },
    });
    expect(token.data!.user.phone).toBe("15112345678");
  });

  it("refuses a phone that does not fit its area code (spec §5)", async () => {
    const short = await client.call(endpoints.sendSmsCode, { query: { areaCode: "49", phone: "1234", type: "register" } });
    expect(short).toMatchObject({ code: 400, msg: "Invalid phone number format." });
    const unknownArea = await client.call(endpoints.sendSmsCode, { query: { areaCode: "999", phone: "1234567890", type: "register" } });
    expect(unknownArea.code).toBe(400);
    const register = await client.call(endpoints.register, {
      body: { accountType: "phone", areaCode: "49", phone: "1234", code: "123456", password: "phone1234" },
    });
    expect(register.msg).toBe("Invalid phone number format.");
  });

  it("refuses a second registration, a wrong code, and a bot that fills the honeypot", async () => {
    expect((await sendEmailCode("alice@example.com", "register")).code).toBe(409);
    advance(61_000);
    await sendEmailCode("bob@example.com", "register");
    const wrong = await client.call(endpoints.register, { body: { accountType: "email", email: "bob@example.com", code: "000000", password: "secret123" } });
    expect(wrong).toMatchObject({ code: 400, msg: "The verification code is wrong." });
    const bot = await client.call(endpoints.register, {
      body: { accountType: "email", email: "bob@example.com", code: "123456", password: "secret123", website: "http://spam" },
    });
    expect(bot.status).toBe(400);
  });

  it("limits code sends to one per destination per 60 s and locks a code after 5 wrong tries", async () => {
    advance(61_000);
    expect((await sendEmailCode("carol@example.com", "register")).code).toBe(200);
    const again = await sendEmailCode("carol@example.com", "register");
    expect(again.code).toBe(429);
    expect(again.msg).toMatch(/wait \d+ seconds/);
    const { code } = await lastCode("carol@example.com");
    for (let i = 0; i < 5; i++) {
      await client.call(endpoints.register, {
        body: { accountType: "email", email: "carol@example.com", code: code === "111111" ? "222222" : "111111", password: "secret123" },
      });
    }
    const locked = await client.call(endpoints.register, { body: { accountType: "email", email: "carol@example.com", code, password: "secret123" } });
    expect(locked.msg).toBe("Too many wrong codes. Please request a new one.");
  });

  it("expires a code after 10 minutes", async () => {
    advance(61_000);
    await sendEmailCode("dave@example.com", "register");
    const { code } = await lastCode("dave@example.com");
    advance(10 * 60_000 + 1);
    const late = await client.call(endpoints.register, { body: { accountType: "email", email: "dave@example.com", code, password: "secret123" } });
    expect(late.msg).toMatch(/expired/);
  });

  it("answers one generic message for an unknown account or a wrong password, and limits attempts", async () => {
    const unknown = await login("nobody@example.com", "whatever1", {}, "10.9.9.9");
    const wrong = await login("alice@example.com", "wrongpass1", {}, "10.9.9.9");
    expect(unknown.msg).toBe("Incorrect account or password.");
    expect(wrong.msg).toBe(unknown.msg);
    for (let i = 0; i < 4; i++) await login("alice@example.com", "wrongpass1", {}, "10.9.9.9");
    const limited = await login("alice@example.com", "secret123", {}, "10.9.9.9");
    expect(limited).toMatchObject({ code: 429 });
    expect(limited.msg).toMatch(/Too many attempts, try again in 15 minutes/);
    const german = await client.call(
      endpoints.token,
      { body: { grant_type: "password", accountType: "email", email: "alice@example.com", password: "secret123", deviceId: "device-de-1" } },
      { lang: "de", ip: "10.9.9.9" },
    );
    expect(german.code).toBe(429);
    // Only that address is locked out of the account: the owner elsewhere logs in (issue 9).
    expect((await login("alice@example.com", "secret123", {}, "10.2.2.2")).code).toBe(200);
    advance(15 * 60_000 + 1);
    expect((await login("alice@example.com", "secret123", {}, "10.9.9.9")).code).toBe(200);
  });

  it("a burst of concurrent wrong passwords is limited atomically, and slows the account down without locking it", async () => {
    await registerByEmail("burst@example.com");
    advance(61_000);
    const burst = await Promise.all(Array.from({ length: 60 }, () => login("burst@example.com", "wrongpass1", {}, "10.7.7.7")));
    // Exactly five tries were checked against the password; the rest were refused before it.
    expect(burst.filter((r) => r.code === 400)).toHaveLength(5);
    expect(burst.filter((r) => r.code === 429)).toHaveLength(55);
    // Many addresses guessing: past 10 failures in an hour each next try waits (2 s, 4 s, …).
    for (let i = 0; i < 5; i++) expect((await login("burst@example.com", "wrongpass1", {}, `10.8.0.${i}`)).code).toBe(400);
    expect((await login("burst@example.com", "secret123", {}, "10.8.1.1")).code).toBe(429);
    advance(2_001);
    // The owner gets in after the short wait, and a success clears the back-off.
    expect((await login("burst@example.com", "secret123", {}, "10.8.1.1")).code).toBe(200);
    expect((await login("burst@example.com", "wrongpass1", {}, "10.8.1.2")).code).toBe(400);
  });

  describe("device cookies (decision 040)", () => {
    it("a stranger's wrong passwords hold the account back for other clients, but the owner's device logs in with its cookie", async () => {
      await registerByEmail("owner@example.com");
      const first = await login("owner@example.com", "secret123", {}, "10.40.0.1");
      let cookie = first.data!.device_cookie!;
      expect(cookie).toMatch(/^[\w-]{43}$/);
      // The probe: 2 wrong passwords a second from ever new addresses for 150 s, while the owner's
      // browser tries the right password every 5 s with the cookie of its earlier login.
      const owner: number[] = [];
      for (let i = 0; i < 300; i++) {
        await login("owner@example.com", "wrongpass1", {}, `10.66.${Math.floor(i / 200)}.${i % 200}`);
        advance(500);
        if (i % 10 !== 9) continue;
        const answer = await login("owner@example.com", "secret123", { deviceCookie: cookie }, "10.40.0.1");
        owner.push(answer.code);
        // Each login replaces the cookie it presented: the old one is no longer the account's.
        if (answer.data?.device_cookie) cookie = answer.data.device_cookie;
      }
      expect(owner).toEqual(Array.from({ length: 30 }, () => 200));
      // Any other client, the owner's new browser too, is held back by the strangers' failures.
      const newBrowser = await login("owner@example.com", "secret123", {}, "10.40.0.2");
      expect(newBrowser).toMatchObject({ code: 429 });
      expect(newBrowser.msg).toMatch(/Too many attempts/);
      // The owner's logins did not lift that back-off: the strangers still wait.
      expect((await login("owner@example.com", "wrongpass1", {}, "10.67.0.1")).code).toBe(429);
      // The first login's cookie was replaced at the next one: now it is no one's.
      expect((await login("owner@example.com", "secret123", { deviceCookie: first.data!.device_cookie! }, "10.40.0.1")).code).toBe(429);
    });

    it("wrong passwords with a device cookie lock out that cookie after five, and only it", async () => {
      await registerByEmail("tess@example.com");
      const cookie = (await login("tess@example.com", "secret123", {}, "10.41.0.1")).data!.device_cookie!;
      for (let i = 0; i < 5; i++) expect((await login("tess@example.com", "wrongpass1", { deviceCookie: cookie }, "10.41.0.1")).code).toBe(400);
      expect((await login("tess@example.com", "secret123", { deviceCookie: cookie }, "10.41.0.1")).code).toBe(429);
      // The cookie's failures are its own: the account's and the address's limits never saw them.
      expect((await login("tess@example.com", "secret123", {}, "10.41.0.1")).code).toBe(200);
      advance(15 * 60_000 + 1);
      expect((await login("tess@example.com", "secret123", { deviceCookie: cookie }, "10.41.0.1")).code).toBe(200);
    });

    it("a forged, unknown or another account's device cookie counts as none, as does one from before a new password", async () => {
      await registerByEmail("fay@example.com");
      await registerByEmail("mal@example.com");
      const fay = (await login("fay@example.com", "secret123", {}, "10.42.0.9")).data!;
      const mallorys = (await login("mal@example.com", "secret123", {}, "10.42.0.9")).data!.device_cookie!;
      const forged = "A".repeat(43);
      // Wrong passwords with a forged cookie count against the account from that address, as a stranger's.
      for (let i = 0; i < 5; i++) expect((await login("fay@example.com", "wrongpass1", { deviceCookie: forged }, "10.42.0.1")).code).toBe(400);
      for (const deviceCookie of [undefined, forged, "x", mallorys]) {
        expect((await login("fay@example.com", "secret123", { deviceCookie }, "10.42.0.1")).code, deviceCookie).toBe(429);
      }
      // Fay's own cookie gets her in from there.
      const again = (await login("fay@example.com", "secret123", { deviceCookie: fay.device_cookie! }, "10.42.0.1")).data!;
      // A new password revokes every device cookie of the account: the last one is no longer trusted.
      const changed = await client.call(
        endpoints.updatePassword,
        { body: { oldPassword: "secret123", newPassword: "newpass123", newPassword1: "newpass123" } },
        { token: again.access_token },
      );
      expect(changed.code).toBe(200);
      expect((await login("fay@example.com", "newpass123", { deviceCookie: again.device_cookie! }, "10.42.0.1")).code).toBe(429);
      expect((await login("fay@example.com", "newpass123", {}, "10.42.0.2")).code).toBe(200);
    });
  });

  it("asks for the Google code as a second step when one is bound", async () => {
    await registerByEmail("erin@example.com");
    const secret = "JBSWY3DPEHPK3PXP";
    await sql`update member set google_secret = ${secret} where email = 'erin@example.com'`.execute(store.db);
    const step1 = await login("erin@example.com");
    expect(step1).toMatchObject({ code: 405, msg: "step 1 login successful", data: null });
    expect((await client.call(endpoints.authentication, { query: { account: "erin@example.com" } })).data).toEqual({ google: true });
    expect((await client.call(endpoints.authentication, { query: { account: "alice@example.com" } })).data).toEqual({ google: false });
    const wrong = await login("erin@example.com", "secret123", { googleCode: totpCode(secret, clock + 5 * 60_000) });
    expect(wrong.code).toBe(400);
    const ok = await login("erin@example.com", "secret123", { googleCode: totpCode(secret, clock) });
    expect(ok.code).toBe(200);
  });

  it("refreshes tokens (the old refresh token stops working after a few seconds) and logs out", async () => {
    const grant = (await login("alice@example.com")).data!;
    const refresh = () => client.call(endpoints.token, { body: { grant_type: "refresh_token", refresh_token: grant.refresh_token } });
    const refreshed = await refresh();
    expect(refreshed.code).toBe(200);
    expect(refreshed.data!.access_token).not.toBe(grant.access_token);
    expect((await memberInfo(grant.access_token)).code).toBe(401);
    // A request that left with the old token just before the answer came back gets the same new tokens.
    advance(REFRESH_GRACE_MS);
    const late = await refresh();
    expect(late.code).toBe(200);
    expect(late.data).toMatchObject({ access_token: refreshed.data!.access_token, refresh_token: refreshed.data!.refresh_token });
    advance(1);
    const replay = await refresh();
    expect(replay.code).toBe(401);
    const token = refreshed.data!.access_token;
    expect((await client.call(endpoints.logout, {}, { token })).code).toBe(200);
    expect((await memberInfo(token)).code).toBe(401);
  });

  it("rotates once for refreshes with one token that arrive together (two tabs, two web processes): each gets the same working tokens", async () => {
    const grant = (await login("alice@example.com")).data!;
    const answers = await Promise.all(
      [0, 1, 2].map(() => client.call(endpoints.token, { body: { grant_type: "refresh_token", refresh_token: grant.refresh_token } })),
    );
    expect(answers.map((a) => a.code)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.data!.access_token)).size).toBe(1);
    expect(new Set(answers.map((a) => a.data!.refresh_token)).size).toBe(1);
    expect((await memberInfo(answers[0]!.data!.access_token)).code).toBe(200);
    // The new refresh token rotates on as usual.
    const next = await client.call(endpoints.token, { body: { grant_type: "refresh_token", refresh_token: answers[0]!.data!.refresh_token } });
    expect(next.code).toBe(200);
    expect(next.data!.access_token).not.toBe(answers[0]!.data!.access_token);
  });

  it("expires an access token after the token time", async () => {
    const token = await tokenOf("alice@example.com");
    advance(604_800_000 + 1);
    expect((await memberInfo(token)).code).toBe(401);
  });

  it("changing the password ends every session", async () => {
    await registerByEmail("frank@example.com");
    const a = (await login("frank@example.com")).data!.access_token;
    const b = (await login("frank@example.com")).data!.access_token;
    const wrongOld = await client.call(
      endpoints.updatePassword,
      { body: { oldPassword: "nope", newPassword: "newpass123", newPassword1: "newpass123" } },
      { token: a },
    );
    expect(wrongOld.msg).toBe("The current password is wrong.");
    const mismatch = await client.call(
      endpoints.updatePassword,
      { body: { oldPassword: "secret123", newPassword: "newpass123", newPassword1: "other1234" } },
      { token: a },
    );
    expect(mismatch.code).toBe(400);
    expect(
      (await client.call(endpoints.updatePassword, { body: { oldPassword: "secret123", newPassword: "newpass123", newPassword1: "newpass123" } }, { token: a }))
        .code,
    ).toBe(200);
    for (const token of [a, b]) expect((await memberInfo(token)).code).toBe(401);
    expect((await login("frank@example.com", "secret123")).code).toBe(400);
    expect((await login("frank@example.com", "newpass123")).code).toBe(200);
  });

  it("a forgotten password is reset with a code to the account's address; every session ends", async () => {
    await registerByEmail("rita@example.com");
    const session = (await login("rita@example.com")).data!.access_token;
    advance(61_000);
    const reset = (body: { code: string; password?: string; password1?: string }) =>
      client.call(endpoints.resetPassword, {
        body: { accountType: "email", email: "rita@example.com", password: "fresh1234", password1: "fresh1234", ...body },
      });
    // No code asked for yet: refused like a wrong code.
    expect((await reset({ code: "123456" })).msg).toBe("The verification code has expired or was not requested. Please request a new one.");
    expect((await sendEmailCode("rita@example.com", "reset")).code).toBe(200);
    const { code } = await lastCode("rita@example.com");
    expect((await reset({ code, password1: "other1234" })).code).toBe(400);
    expect((await reset({ code: code === "000000" ? "111111" : "000000" })).msg).toMatch(/wrong/i);
    expect((await reset({ code, password: "short", password1: "short" })).code).toBe(400);
    expect((await reset({ code })).code).toBe(200);
    // The code works once; the old password and every old session stop working.
    expect((await reset({ code })).code).toBe(400);
    expect((await memberInfo(session)).code).toBe(401);
    expect((await login("rita@example.com", "secret123")).code).toBe(400);
    expect((await login("rita@example.com", "fresh1234")).code).toBe(200);

    // An unknown account: the send answers as if sent, the reset is refused the same way.
    expect((await sendEmailCode("nobody-here@example.com", "reset")).code).toBe(200);
    const unknown = await client.call(endpoints.resetPassword, {
      body: { accountType: "email", email: "nobody-here@example.com", code: "123456", password: "fresh1234", password1: "fresh1234" },
    });
    expect(unknown.msg).toBe("The verification code has expired or was not requested. Please request a new one.");

    // A frozen account cannot be taken back by resetting its password: refused, the password kept.
    await store.db.updateTable("member").set({ frozen_at: new Date(), frozen_reason: "Reported stolen." }).where("email", "=", "rita@example.com").execute();
    advance(61_000);
    expect((await sendEmailCode("rita@example.com", "reset")).code).toBe(200);
    const frozen = await reset({ code: (await lastCode("rita@example.com")).code, password: "taken1234", password1: "taken1234" });
    expect([frozen.code, frozen.reason]).toEqual([403, "ACCOUNT_FROZEN"]);
    await store.db.updateTable("member").set({ frozen_at: null, frozen_reason: null }).where("email", "=", "rita@example.com").execute();
    expect((await login("rita@example.com", "fresh1234")).code).toBe(200);
  });

  it("lists, renames and deletes devices; deleting one ends its session", async () => {
    const first = await tokenOf("alice@example.com");
    const second = await tokenOf("alice@example.com");
    const devices = await client.data(endpoints.devices, {}, { token: first });
    expect(devices.length).toBeGreaterThanOrEqual(2);
    const mine = devices.find((d) => d.current)!;
    const other = devices.find((d) => !d.current)!;
    expect(mine.name).toBe("Chrome on Linux");
    expect((await client.call(endpoints.updateDevice, { body: { id: mine.id, name: "Work laptop" } }, { token: first })).code).toBe(200);
    expect((await client.call(endpoints.deleteDevice, { params: { deviceId: other.id } }, { token: first })).code).toBe(200);
    const remaining = await client.data(endpoints.devices, {}, { token: first });
    expect(remaining.find((d) => d.current)!.name).toBe("Work laptop");
    expect(remaining.some((d) => d.id === other.id)).toBe(false);
    void second;
  });

  it("a member cannot read or change another member's devices or login log", async () => {
    const alice = await tokenOf("alice@example.com");
    const erinSecret = "JBSWY3DPEHPK3PXP";
    const erin = (await login("erin@example.com", "secret123", { googleCode: totpCode(erinSecret, clock) })).data!.access_token;
    const erinDevices = await client.data(endpoints.devices, {}, { token: erin });
    const aliceDevices = await client.data(endpoints.devices, {}, { token: alice });
    expect(aliceDevices.some((d) => erinDevices.some((e) => e.id === d.id))).toBe(false);
    const target = erinDevices[0]!.id;
    expect((await client.call(endpoints.deleteDevice, { params: { deviceId: target } }, { token: alice })).code).toBe(404);
    expect((await client.call(endpoints.updateDevice, { body: { id: target, name: "hijacked" } }, { token: alice })).code).toBe(404);
    expect((await memberInfo(erin)).code).toBe(200);
    const aliceLog = await client.data(endpoints.loginLog, { query: { pageSize: "100" } }, { token: alice });
    const erinLog = await client.data(endpoints.loginLog, { query: { pageSize: "100" } }, { token: erin });
    expect(aliceLog.total).toBeGreaterThan(3);
    // Each log is its member's own logins, and only those (the entries carry no id to compare).
    const ownLogins = async (email: string) =>
      (
        await sql<{
          created_at: string | Date;
        }>`select l.created_at from login_log l join member m on m.id = l.member_id where m.email = ${email} order by l.id desc`.execute(store.db)
      ).rows.map((r) => new Date(r.created_at).toISOString());
    expect(aliceLog.records.map((r) => r.createdAt)).toEqual(await ownLogins("alice@example.com"));
    expect(erinLog.records.map((r) => r.createdAt)).toEqual(await ownLogins("erin@example.com"));
    expect(erinLog.total).toBe(erinLog.records.length);
  });

  it("sets the trade password and the anti-phishing code with a security code; the next e-mail carries it", async () => {
    const token = await tokenOf("alice@example.com");
    advance(61_000);
    expect((await sendEmailCode("erin@example.com", "security", token)).code).toBe(403);
    await sendEmailCode("alice@example.com", "security", token);
    let { code } = await lastCode("alice@example.com");
    const bad = await client.call(endpoints.tradePassword, { body: { tradePassword: "12345", code } }, { token });
    expect(bad).toMatchObject({ code: 400, reason: "VALIDATION", msg: "Invalid body: tradePassword: must be 6 digits" });
    const badDe = await client.call(endpoints.tradePassword, { body: { tradePassword: "12345", code } }, { token, lang: "de" });
    expect(badDe.msg).toBe("Ungültiger Anfrageinhalt: tradePassword: muss aus 6 Ziffern bestehen");
    expect((await client.call(endpoints.tradePassword, { body: { tradePassword: "123456", code } }, { token })).code).toBe(200);
    advance(61_000);
    await sendEmailCode("alice@example.com", "security", token);
    ({ code } = await lastCode("alice@example.com"));
    expect((await client.call(endpoints.antiCode, { body: { antiCode: "BLUEFOX7", code } }, { token })).code).toBe(200);
    advance(61_000);
    await sendEmailCode("alice@example.com", "security", token);
    const { mail } = await lastCode("alice@example.com");
    expect(mail.body).toContain("BLUEFOX7");
    const info = (await memberInfo(token)).data;
    expect(info).toMatchObject({ tradePasswordSet: true, antiCodeSet: true });
  });

  it("binds Google 2FA from a pending secret (stable across reloads), then resets it", async () => {
    await registerByEmail("gina@example.com");
    const token = (await login("gina@example.com")).data!.access_token;
    const first = await client.data(endpoints.googleVerification, { params: { purpose: "bind" } }, { token });
    const again = await client.data(endpoints.googleVerification, { params: { purpose: "bind" } }, { token });
    expect(again.secret).toBe(first.secret);
    expect(first.otpauthUri).toMatch(/^otpauth:\/\/totp\/Meridian%20Exchange%3Agina%40example\.com\?secret=[A-Z2-7]+/);
    advance(61_000);
    await sendEmailCode("gina@example.com", "security", token);
    const { code } = await lastCode("gina@example.com");
    const wrong = await client.call(endpoints.googleBindingOrReset, { params: { googleCode: "000000", mode: "2" }, query: { code: code } }, { token });
    expect(wrong.code).toBe(400);
    const bound = await client.call(
      endpoints.googleBindingOrReset,
      { params: { googleCode: totpCode(first.secret, clock), mode: "2" }, query: { code: code } },
      { token },
    );
    expect(bound.data).toEqual({ googleBound: true });
    expect((await login("gina@example.com")).code).toBe(405);
    expect((await client.call(endpoints.googleVerification, { params: { purpose: "bind" } }, { token })).code).toBe(409);
    advance(61_000);
    await sendEmailCode("gina@example.com", "security", token);
    const reset = await client.call(
      endpoints.googleBindingOrReset,
      { params: { googleCode: totpCode(first.secret, clock), mode: "1" }, query: { code: (await lastCode("gina@example.com")).code } },
      { token },
    );
    expect(reset.data).toEqual({ googleBound: false });
    expect((await login("gina@example.com")).code).toBe(200);
  });

  describe("priority support (decision 032)", () => {
    const setSupport = (enabled: boolean) =>
      store.db
        .updateTable("site_config")
        .set({ config_value: JSON.stringify(enabled) })
        .where("config_key", "=", "supportEnabled")
        .execute();
    const deskMails = async (uid: string) =>
      (await client.data(endpoints.devMailbox, { query: { destination: "support@meridian.example" } }, OPERATOR)).filter((m) => m.subject.includes(uid));
    const notices = async (token: string) => (await client.data(endpoints.noticeList, { query: {} }, { token })).records.map((n) => n.type);

    it("mails the support desk once, tells the member, and marks them supported", async () => {
      const token = await tokenOf("alice@example.com");
      const { uid } = (await memberInfo(token)).data!;
      expect((await client.call(endpoints.support, {}, { token })).data).toEqual({ supported: 1 });
      expect((await memberInfo(token)).data!.supported).toBe(1);
      const [mail, ...more] = await deskMails(uid);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe(`[Meridian Exchange] Priority support request from member ${uid}`);
      expect(mail!.body).toContain("Reach them at: alice@example.com");
      expect(mail!.body).toMatch(/Asked at: 2026-11-\d\d \d\d:\d\d \(UTC\)/);
      expect(await notices(token)).toContain("support_requested");
      // Pressed again (a retried post, another tab): nothing more is written or mailed.
      expect((await client.call(endpoints.support, {}, { token })).data).toEqual({ supported: 1 });
      expect(await deskMails(uid)).toHaveLength(1);
      expect((await notices(token)).filter((t) => t === "support_requested")).toHaveLength(1);
    });

    it("is refused while the site takes no support requests, and changes nothing", async () => {
      await registerByEmail("sue@example.com");
      const token = await tokenOf("sue@example.com");
      const { uid } = (await memberInfo(token)).data!;
      await setSupport(false);
      try {
        const refused = await client.call(endpoints.support, {}, { token });
        expect(refused.code).toBe(403);
        expect(refused.msg).toBe("Priority support requests are not taken at the moment.");
        expect((await memberInfo(token)).data!.supported).toBe(0);
        expect(await deskMails(uid)).toEqual([]);
      } finally {
        await setSupport(true);
      }
      expect((await client.call(endpoints.support, {}, { token })).data).toEqual({ supported: 1 });
    });
  });

  describe("token time (decision 032)", () => {
    const setTokenTime = (value: string) => store.db.updateTable("site_config").set({ config_value: value }).where("config_key", "=", "tokenTime").execute();
    const expiryOf = async (accessToken: string) => {
      const rows = await store.db.selectFrom("device_session").select(["access_token_hash", "access_expires_at", "refresh_expires_at"]).execute();
      const { digest } = await import("../../core/members/secrets");
      return rows.find((r) => r.access_token_hash === digest(accessToken))!;
    };

    it("issues access tokens that live the site's token time, at login and at refresh", async () => {
      await setTokenTime("3600");
      try {
        const grant = (await login("alice@example.com")).data!;
        expect(grant.expires_in).toBe(3600);
        const session = await expiryOf(grant.access_token);
        expect(new Date(session.access_expires_at).getTime()).toBe(clock + 3600_000);
        expect(new Date(session.refresh_expires_at).getTime()).toBe(clock + 30 * 24 * 3600_000);
        await setTokenTime("120");
        const refreshed = (await client.call(endpoints.token, { body: { grant_type: "refresh_token", refresh_token: grant.refresh_token } })).data!;
        expect(refreshed.expires_in).toBe(120);
        expect(new Date((await expiryOf(refreshed.access_token)).access_expires_at).getTime()).toBe(clock + 120_000);
        // The token works until its time is up, and not after.
        advance(119_000);
        expect((await memberInfo(refreshed.access_token)).code).toBe(200);
        advance(1_000);
        expect((await memberInfo(refreshed.access_token)).code).toBe(401);
      } finally {
        await setTokenTime("604800");
      }
    });

    it("falls back to the spec's 604800 s when the setting is unreadable", async () => {
      await setTokenTime("soon");
      try {
        expect((await login("alice@example.com")).data!.expires_in).toBe(604800);
      } finally {
        await setTokenTime("604800");
      }
    });
  });

  // Table-driven: no member endpoint answers 5xx to malformed input.
  const garbage: unknown[] = [
    undefined,
    null,
    "",
    42,
    true,
    [],
    {},
    "x".repeat(70_000),
    "\u0000\uFFFF\uD800",
    { grant_type: "password" },
    { accountType: "phone", email: 7 },
  ];
  it.each(Object.entries(memberEndpoints))("%s never answers 5xx to malformed input", async (_name, endpoint) => {
    const token = (await login("alice@example.com")).data?.access_token as string | undefined;
    const plain = new ApiClient(app);
    for (const value of garbage) {
      const param = String(value ?? "").toWellFormed() || "x";
      const params = Object.fromEntries([...endpoint.path.matchAll(/:(\w+)/g)].map(([, name]) => [name!, param]));
      const text = String(value).toWellFormed();
      const query = { account: text, email: text, type: text, pageNo: text, destination: text };
      for (const withToken of [undefined, token]) {
        const res = await plain.send(
          endpoint,
          { params, query, body: endpoint.method === "POST" ? (value === undefined ? "{bad json" : JSON.stringify(value)) : undefined },
          { token: withToken, headers: { "content-type": "application/json" } },
        );
        expect(res.statusCode, `${endpoint.path} with ${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
        expect(res.json()).toHaveProperty("code");
      }
    }
  });
});
