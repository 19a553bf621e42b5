import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../../protocol/endpoints";
import { buildApp } from "../../app";
import { ApiClient } from "../../testing/api-client";
import { registerByEmail, TEST_ADMIN_TOKEN } from "../../testing/api-members";
import { openTestStore, type TestStore } from "../../testing/test-stores";
import { createServices } from "../context";

/**
 * The language of a member's mails that no request of theirs asks for (a deposit credited, a
 * withdrawal approved; decision 030): the registration's, then each login's and token refresh's,
 * as the web tier names it in the `lang` header. A call without one changes nothing.
 */
describe("a member's mail language", () => {
  let store: TestStore;
  let app: FastifyInstance;

  beforeAll(async () => {
    store = await openTestStore("pglite");
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  it("is the registration's language, then the latest login's or refresh's", async () => {
    const email = "lang@example.com";
    const langOf = async () => (await store.db.selectFrom("member").select("lang").where("email", "=", email).executeTakeFirstOrThrow()).lang;
    const client = new ApiClient(app);
    const login = (lang?: string) =>
      client.data(endpoints.token, { body: { grant_type: "password", accountType: "email", email, password: "secret123", deviceId: "device-lang" } }, { lang });

    await registerByEmail(new ApiClient(app, { lang: "jp" }), email);
    expect(await langOf()).toBe("jp");
    await login("kr");
    expect(await langOf()).toBe("kr");
    const grant = await login();
    expect(await langOf()).toBe("kr");
    await client.data(endpoints.token, { body: { grant_type: "refresh_token", refresh_token: grant.refresh_token } }, { lang: "de" });
    expect(await langOf()).toBe("de");
    await login("xx");
    expect(await langOf()).toBe("de");
  });
});
