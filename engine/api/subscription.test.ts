import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { seedSubscriptions } from "../earn/sub-config";
import { subscriptionProduct } from "../earn/sub-product";
import { SubscriptionService } from "../earn/sub-service";
import { DurableCore } from "../journal/durable-core";
import { seedDemoMarkets } from "../sim/demo-markets";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

const MINUTE = 60_000;

/**
 * Subscriptions over the API (issue 32, decision 053): projects to anyone, a member's
 * subscriptions with every refusal translated and nothing changed, records through every status,
 * the return application where the variant offers it (and absent where it does not), operators'
 * projects and payments.
 */
describe.each(testStoreKinds())("subscriptions API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let plain: FastifyInstance;
  let durable: DurableCore;
  let service: SubscriptionService;
  let client: ApiClient;
  let clock = Date.UTC(2026, 11, 2, 12, 0, 0);
  const installedAt = clock;
  const members: Record<string, { token: string; uid: string }> = {};
  const as = (name: string, lang?: string): Caller => ({ token: members[name]!.token, ...(lang ? { lang } : {}) });
  const admin = { admin: TEST_ADMIN_TOKEN };

  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedDemoMarkets(store.db);
    await seedSubscriptions(store.db, installedAt, true);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, subscriptionProduct],
      now: () => clock,
      onFatal: (e) => {
        throw e;
      },
    });
    service = new SubscriptionService(durable);
    const services = () => createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN, now: () => clock });
    const spot = new SpotService(durable);
    app = await buildApp({ store, apiHead: "mjkj-web", spot, subscriptions: service, returnApply: true, services: services() });
    await app.ready();
    // The same exchange in a variant without the return application (decision 005's default).
    plain = await buildApp({ store, apiHead: "mjkj-web", spot, subscriptions: service, services: services() });
    await plain.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob"]) {
      const { uid, token } = await registerAndLogIn(app, `${name}-sub-${kind}@example.com`, `device-${name}`);
      members[name] = { token, uid };
      await client.data(endpoints.adminDeposit, { body: { uid, coin: "USDT", account: "funding", amount: "1000", reference: `u-${name}` } }, admin);
    }
  });
  afterAll(async () => {
    await durable?.drain();
    await plain?.close();
    await app?.close();
    await store?.dispose();
  });

  it("lists the projects of each type to anyone, open and upcoming first", async () => {
    const coins = await client.data(endpoints.subscriptionProjects, { params: { type: "1" } }, {});
    expect(coins.map((p) => [p.projectId, p.phase])).toEqual([
      ["NXA-R1", "open"],
      ["NXA-R2", "open"],
      ["NXA-R3", "upcoming"],
    ]);
    expect(coins[0]).toMatchObject({ coin: "NXA", coinName: "Nexa", payCoin: "USDT", price: "0.05", lot: "10", supply: "200000", returnByApplication: true });
    const etfs = await client.data(endpoints.subscriptionProjects, { params: { type: "2" } }, {});
    expect(etfs.map((p) => p.projectId)).toEqual(["TOP5-R1"]);
    expect((await client.call(endpoints.subscriptionProjects, { params: { type: "3" as never } }, {})).code).toBe(400);
    expect((await client.call(endpoints.subscriptionProject, { params: { projectId: "NOPE" } }, {})).code).toBe(404);
  });

  it("subscribes once per key, refuses with the figures that would pass, and reaches every status", async () => {
    const rules = {
      projectId: "TOP5-API",
      type: 2 as const,
      coin: "TOP5",
      payCoin: "USDT",
      price: "10",
      lot: "0.1",
      supply: "30",
      minPerMember: "1",
      maxPerMember: "200",
      startAt: new Date(clock + MINUTE).toISOString(),
      endAt: new Date(clock + 11 * MINUTE).toISOString(),
      returnByApplication: true,
    };
    expect(await client.data(endpoints.adminSubscriptionProject, { body: rules }, admin)).toMatchObject({ phase: "upcoming", supply: "30" });
    expect(await client.call(endpoints.adminSubscriptionProject, { body: { ...rules, projectId: "BAD", lot: "0.000000001" } }, admin)).toMatchObject({
      code: 400,
    });
    const subscribe = (quantity: string, key: string, who = "alice", lang?: string) =>
      client.call(endpoints.subscribe, { body: { projectId: "TOP5-API", quantity, idempotencyKey: key } }, as(who, lang));
    expect(await subscribe("1", "sub-key-0001")).toMatchObject({ code: 400, reason: "SUB_NOT_OPEN" });
    clock += 2 * MINUTE;
    expect((await client.call(endpoints.adminSubscriptionProject, { body: rules }, admin)).reason).toBe("SUB_PROJECT_STARTED");
    const first = await subscribe("40", "sub-key-0002");
    expect(first.data).toMatchObject({ quantity: "40", paid: "400", status: "subscribing", coinName: "Top 5 Index ETF" });
    expect((await subscribe("40", "sub-key-0002")).data?.subscriptionId).toBe(first.data!.subscriptionId);
    expect((await subscribe("41", "sub-key-0002")).code).toBe(409);
    expect(await subscribe("0.5", "sub-key-0003")).toMatchObject({ code: 400, reason: "SUB_BELOW_MINIMUM", msg: "The smallest subscription is 1 TOP5." });
    expect(await subscribe("1.05", "sub-key-0004")).toMatchObject({ code: 400, reason: "SUB_BAD_QUANTITY", msg: "Enter a whole number of lots of 0.1 TOP5." });
    expect((await subscribe("1.05", "sub-key-0004", "alice", "de")).msg).not.toBe("Enter a whole number of lots of 0.1 TOP5.");
    expect(await subscribe("161", "sub-key-0005")).toMatchObject({ code: 400, reason: "SUB_ABOVE_MEMBER_LIMIT" });
    expect(await subscribe("61", "sub-key-0006")).toMatchObject({ code: 400, reason: "SUB_INSUFFICIENT" });
    expect(await client.data(endpoints.subscriptionAsked, { params: { projectId: "TOP5-API" } }, as("alice"))).toEqual({ asked: "40", left: "160" });
    expect(
      (await client.call(endpoints.subscribe, { body: { projectId: "TOP5-API", quantity: "-1", idempotencyKey: "sub-key-0007" } }, as("alice"))).code,
    ).toBe(400);
    expect((await subscribe("20", "sub-key-0008", "bob")).code).toBe(200);

    clock += 10 * MINUTE;
    const closed = await client.data(endpoints.subscriptionRecords, { params: { type: "2", pageNo: "1", pageSize: "10" }, query: {} }, as("alice"));
    expect(closed.records.map((r) => r.status)).toEqual(["closed"]);
    expect(await service.tick()).toBe("OK");
    // 30 of 60 asked: 20 and 10; the rest kept for the application.
    const allotted = await client.data(
      endpoints.subscriptionRecords,
      { params: { type: "2", pageNo: "1", pageSize: "10" }, query: { status: "allotted" } },
      as("alice"),
    );
    expect(allotted.records).toMatchObject([{ wonQuantity: "20", wonAmount: "200", refund: "200", status: "allotted" }]);
    // B never sees A's records.
    const bobs = await client.data(endpoints.subscriptionRecords, { params: { type: "2", pageNo: "1", pageSize: "10" }, query: {} }, as("bob"));
    expect(bobs.records.map((r) => [r.quantity, r.wonQuantity])).toEqual([["20", "10"]]);

    expect(await client.data(endpoints.returnApplyQuery, {}, as("alice"))).toMatchObject({
      status: 2,
      returnable: [{ coin: "USDT", amount: "200", subscriptions: 1 }],
      returning: [],
    });
    const applied = await client.data(endpoints.returnApply, { body: { idempotencyKey: "ret-key-0001" } }, as("alice"));
    expect(applied).toMatchObject({ status: 0, returnable: [], returning: [{ coin: "USDT", amount: "200" }] });
    expect((await client.data(endpoints.returnApply, { body: { idempotencyKey: "ret-key-0001" } }, as("alice"))).status).toBe(0);
    expect(await client.call(endpoints.returnApply, { body: { idempotencyKey: "ret-key-0002" } }, as("alice"))).toMatchObject({
      code: 400,
      reason: "SUB_NOTHING_TO_RETURN",
    });
    const pending = await client.data(endpoints.opsReturnApplications, {}, admin);
    expect(pending).toMatchObject([{ uid: members.alice!.uid, amounts: [{ coin: "USDT", amount: "200" }], subscriptions: 1 }]);
    await client.data(endpoints.adminPayReturn, { body: { applicationId: pending[0]!.applicationId } }, admin);
    expect((await client.call(endpoints.adminPayReturn, { body: { applicationId: pending[0]!.applicationId } }, admin)).code).toBe(404);
    expect((await client.data(endpoints.returnApplyQuery, {}, as("alice"))).status).toBe(1);
    const returned = await client.data(endpoints.subscriptionRecords, { params: { type: "2", pageNo: "1", pageSize: "10" }, query: {} }, as("alice"));
    expect(returned.records.map((r) => r.status)).toEqual(["returned"]);
    // 1,000 − 400 paid + 200 returned.
    const owner = String((await store.db.selectFrom("member").select("id").where("uid", "=", members.alice!.uid).executeTakeFirstOrThrow()).id);
    expect(durable.core.ledger.posted({ owner, kind: "funding", asset: "USDT" })).toBe(800_00000000n);
    expect(durable.core.ledger.posted({ owner, kind: "funding", asset: "TOP5" })).toBe(20_00000000n);

    // The default variant: no return application at all.
    const other = new ApiClient(plain);
    expect((await other.call(endpoints.returnApplyQuery, {}, as("bob"))).code).toBe(404);
    expect((await other.call(endpoints.returnApply, { body: { idempotencyKey: "ret-key-0003" } }, as("bob"))).code).toBe(404);
    // There, no project's returns may wait for an application, and none is paid.
    const later = { ...rules, projectId: "TOP5-PLAIN", startAt: new Date(clock + MINUTE).toISOString(), endAt: new Date(clock + 2 * MINUTE).toISOString() };
    expect(await other.call(endpoints.adminSubscriptionProject, { body: later }, admin)).toMatchObject({ code: 400, reason: "SUB_BAD_RULES" });
    expect((await other.call(endpoints.adminSubscriptionProject, { body: { ...later, returnByApplication: false } }, admin)).code).toBe(200);
    expect((await other.call(endpoints.adminPayReturn, { body: { applicationId: "R-any" } }, admin)).code).toBe(404);
    expect(durable.core.subscriptions.checkInvariants()).toEqual([]);
  });
});
