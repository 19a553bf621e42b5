import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { define } from "../../protocol/endpoint";
import { buildApp } from "../app";
import { MemberService } from "../members/member-service";
import { OperatorService } from "../operators/operator-service";
import { ApiClient } from "../testing/api-client";
import { OPERATOR, registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { createServices, type ApiServices } from "./context";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";

/** Endpoints of this test only: what the wrappers hand a handler, and what they refuse before it runs. */
const probes = {
  whoAmI: define({
    method: "GET",
    path: "test/who-am-i",
    query: z.object({ n: z.string().regex(/^\d+$/).optional() }),
    response: z.object({ memberId: z.string(), sessionId: z.string(), lang: z.string(), now: z.number(), demo: z.boolean() }),
  }),
  securityChange: define({ method: "POST", path: "test/security-change", response: z.object({ changed: z.boolean() }) }),
  operatorCall: define({
    method: "POST",
    path: "test/operator",
    operator: "dashboard.read",
    body: z.object({ n: z.number() }),
    response: z.object({ n: z.number(), now: z.number() }),
  }),
};

/** memberEndpoint and operatorEndpoint: the one preamble of every member and operator call. */
describe("endpoint wrappers", () => {
  const clock = Date.parse("2026-11-24T08:00:00Z");
  let store: TestStore;
  let app: FastifyInstance;
  let services: ApiServices;
  let client: ApiClient;
  let ran = 0;

  beforeAll(async () => {
    store = await openTestStore("pglite");
    services = createServices({ devMailbox: true, now: () => clock, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN });
    app = await buildApp({ store, apiHead: "mjkj-web", services });
    const operators = new OperatorService(store.db, async () => "Meridian");
    const api = { app, apiHead: "mjkj-web", db: store.db, services, members: new MemberService(store.db, services), operators };
    memberEndpoint(api, probes.whoAmI, async ({ memberId, sessionId, lang, now, demo }) => ({ memberId, sessionId, lang, now, demo }));
    memberEndpoint(
      api,
      probes.securityChange,
      async () => {
        ran += 1;
        return { changed: true };
      },
      { securityChange: true },
    );
    operatorEndpoint(api, probes.operatorCall, async ({ body, now }) => ({ n: body.n, now }));
    await app.ready();
    client = new ApiClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const memberId = async (email: string) => (await store.db.selectFrom("member").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;

  it("resolves the member, the language and the clock, or answers 401 in the request's language", async () => {
    const { token } = await registerAndLogIn(app, "wrapped@example.com", "device-wrapped");
    const me = await client.data(probes.whoAmI, {}, { token, lang: "de" });
    expect(me).toEqual({ memberId: await memberId("wrapped@example.com"), sessionId: expect.any(String), lang: "de", now: clock, demo: false });
    expect((await client.data(probes.whoAmI, {}, { token })).lang).toBe("en");

    expect(await client.call(probes.whoAmI, {}, { lang: "de" })).toMatchObject({ status: 401, msg: "Bitte melden Sie sich erneut an." });
    expect(await client.call(probes.whoAmI, {}, { token: "not-a-session-token-not-a-session-token" })).toMatchObject({
      status: 401,
      msg: "Please log in again.",
    });
    // The input is parsed first: bad input is a 400 naming the field, logged in or not.
    expect(await client.call(probes.whoAmI, { query: { n: "x" } })).toMatchObject({ status: 400, msg: expect.stringMatching(/^Invalid query: n/) });
  });

  it("refuses a security change by the demo member before the handler runs, and lets others through", async () => {
    const demo = await registerAndLogIn(app, "wrapped-demo@example.com", "device-wrapped-demo");
    const other = await registerAndLogIn(app, "wrapped-other@example.com", "device-wrapped-other");
    services.demoMemberId = await memberId("wrapped-demo@example.com");
    try {
      expect((await client.data(probes.whoAmI, {}, { token: demo.token })).demo).toBe(true);
      const before = ran;
      const refused = await client.call(probes.securityChange, {}, { token: demo.token, lang: "de" });
      expect(refused).toMatchObject({ status: 403, code: 403, msg: expect.stringMatching(/Demo-Mitglieds/) });
      expect(ran).toBe(before);
      expect(await client.data(probes.securityChange, {}, { token: other.token })).toEqual({ changed: true });
      expect(ran).toBe(before + 1);
    } finally {
      services.demoMemberId = null;
    }
  });

  it("lets an operator call through only with the admin token", async () => {
    expect(await client.call(probes.operatorCall, { body: { n: 1 } })).toMatchObject({
      status: 403,
      msg: "an operator session or the admin token is required",
    });
    expect(await client.call(probes.operatorCall, { body: { n: 1 } }, { admin: "x".repeat(TEST_ADMIN_TOKEN.length) })).toMatchObject({ status: 403 });
    // A member's token is no operator's.
    const { token } = await registerAndLogIn(app, "wrapped-op@example.com", "device-wrapped-op");
    expect((await client.call(probes.operatorCall, { body: { n: 1 } }, { token })).status).toBe(403);
    expect(await client.data(probes.operatorCall, { body: { n: 2 } }, OPERATOR)).toEqual({ n: 2, now: clock });
  });

  it("checks the admin token before the body: a stranger's malformed body is a 403 that names no field", async () => {
    const wrong = { admin: "x".repeat(TEST_ADMIN_TOKEN.length) };
    for (const caller of [{}, wrong]) {
      for (const body of [{ n: "not a number" }, {}, "not json at all"]) {
        const answer = await client.callUnchecked(probes.operatorCall, { body }, { ...caller, headers: { "content-type": "application/json" } });
        expect(answer).toMatchObject({ status: 403, msg: "an operator session or the admin token is required" });
      }
    }
    // The operator is told what is wrong with the input.
    expect(await client.callUnchecked(probes.operatorCall, { body: { n: "x" } }, OPERATOR)).toMatchObject({
      status: 400,
      msg: expect.stringMatching(/^Invalid body: n/),
    });
  });
});
