import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTLEMENTS_PER_TICK } from "../core/earn/subscriptions";
import { trimDecimal } from "../contracts/contract-config";
import { DurableCore } from "../journal/durable-core";
import { durableStarter, expectSameStateOnRestart } from "../testing/restart-check";
import { testAct } from "../testing/operator-act";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { seededProjects, seedSubscriptions } from "./sub-config";
import { subscriptionProduct } from "./sub-product";
import { SubscriptionService } from "./sub-service";

const MINUTE = 60_000;

/**
 * Decision 053: subscriptions on the durable layer. A session of every subscription command
 * (subscriptions, refusals, an allotment returned at once, one kept for the application, an
 * application and its payment, a large allotment settled over ticks) leaves the tables saying what
 * the core holds, and a start from the tables (mid-settlement: the waiting lots recomputed) and
 * one from a snapshot reach the same state hash.
 */
describe.each(testStoreKinds())("subscriptions on the durable layer (%s)", (kind) => {
  let store: TestStore;
  let clock = Date.UTC(2026, 11, 1, 12, 0, 0);
  const installedAt = clock;
  const start = durableStarter(
    () => store.db,
    [subscriptionProduct],
    () => clock,
  );

  beforeAll(async () => {
    store = await openTestStore(kind);
    const { seedDemoMarkets } = await import("../sim/demo-markets");
    await seedDemoMarkets(store.db);
    await seedSubscriptions(store.db, installedAt, false);
  });
  afterAll(() => store.dispose());

  it("projects every command's rows and restores the same state from the tables and from a snapshot", async () => {
    const durable = await start();
    const service = new SubscriptionService(durable);
    expect([...durable.core.subscriptions.projects.keys()]).toEqual(seededProjects(installedAt, false).map((p) => p.id));
    const [ALICE, BOB] = ["960", "961"];
    await durable.funds.deposit(ALICE, "USDT", "funding", "100000", "sd-alice");
    await durable.funds.deposit(BOB, "USDT", "funding", "100000", "sd-bob");

    // The short round (200,000 NXA at 0.05, lots of 10): 100,000 asked, not oversubscribed.
    const a = await service.subscribe(ALICE, { projectId: "NXA-R1", quantity: "50000" }, "u-1");
    const b = await service.subscribe(BOB, { projectId: "NXA-R1", quantity: "50000" }, "u-2");
    expect([a.code, b.code]).toEqual(["OK", "OK"]);
    expect((await service.subscribe(ALICE, { projectId: "NXA-R1", quantity: "50000" }, "u-1")).subscriptionId).toBe(a.subscriptionId);
    expect((await service.subscribe(ALICE, { projectId: "NXA-R1", quantity: "100" }, "u-3")).code).toBe("SUB_ABOVE_MEMBER_LIMIT");
    expect((await service.subscribe(ALICE, { projectId: "NXA-R3", quantity: "100" }, "u-4")).code).toBe("SUB_NOT_OPEN");
    expect((await service.subscribe(ALICE, { projectId: "NXA-R2", quantity: "105" }, "u-5")).code).toBe("SUB_BAD_QUANTITY");
    // An ETF project that returns by application, added by an operator, a window of ten minutes.
    const etf = {
      id: "TOP5-T",
      projectType: 2 as const,
      asset: "TOP5",
      quoteAsset: "USDT",
      price: "10",
      lot: "0.1",
      supply: "100",
      minPerMember: "1",
      maxPerMember: "1000",
      startAt: clock + MINUTE,
      endAt: clock + 11 * MINUTE,
      returnByApplication: true,
    };
    expect((await service.setProject(etf, testAct())).code).toBe("OK");
    clock += 2 * MINUTE;
    const c = await service.subscribe(ALICE, { projectId: "TOP5-T", quantity: "150" }, "u-6");
    const d = await service.subscribe(BOB, { projectId: "TOP5-T", quantity: "50" }, "u-7");
    expect([c.code, d.code]).toEqual(["OK", "OK"]);
    expect((await service.setProject({ ...etf, supply: "200" }, testAct())).code).toBe("SUB_PROJECT_STARTED");
    // Past both windows: allotted and settled.
    clock += 30 * MINUTE;
    expect(await service.tick()).toBe("OK");
    expect(await service.applyForReturn(ALICE, "ra-1")).toBe("OK");
    expect(await service.applyForReturn(ALICE, "ra-1")).toBe("OK");
    expect(await service.applyForReturn(ALICE, "ra-2")).toBe("SUB_NOTHING_TO_RETURN");
    const application = [...durable.core.subscriptions.pendingApplications()][0]!;
    expect(await service.payReturn(application.id, testAct())).toBe("OK");
    expect(await service.applyForReturn(BOB, "rb-1")).toBe("OK");
    await durable.drain();

    const rows = await durable.db
      .selectFrom("subscription")
      .select(["id", "project_id", "status", "won_quantity", "refund"])
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    expect(rows.map((r) => [r.project_id, r.status, trimDecimal(String(r.won_quantity)), trimDecimal(String(r.refund))])).toEqual([
      // 100,000 asked of 200,000: everything won, nothing to return.
      ["NXA-R1", "won", "50000", "0"],
      ["NXA-R1", "won", "50000", "0"],
      // 100 TOP5 over 200 asked: 75 and 25, the rest returned on application (alice paid, bob applied).
      ["TOP5-T", "returned", "75", "750"],
      ["TOP5-T", "returning", "25", "250"],
    ]);
    const project = await durable.db.selectFrom("sub_project").select(["requested", "allotted_at"]).where("id", "=", "TOP5-T").executeTakeFirstOrThrow();
    expect([trimDecimal(String(project.requested)), project.allotted_at !== null]).toEqual(["200", true]);
    const applications = await durable.db.selectFrom("return_application").select(["member_id", "status"]).orderBy("created_at").execute();
    expect(applications).toEqual([
      { member_id: ALICE, status: "paid" },
      { member_id: BOB, status: "pending" },
    ]);

    // A large allotment, stopped halfway through its settlement: the restore recomputes the lots still waiting.
    const big = {
      ...etf,
      id: "NXA-BIG",
      projectType: 1 as const,
      asset: "NXA",
      price: "0.05",
      lot: "10",
      supply: "10000",
      minPerMember: "10",
      maxPerMember: "100",
      startAt: clock + MINUTE,
      endAt: clock + 3 * MINUTE,
      returnByApplication: false,
    };
    expect((await service.setProject(big, testAct())).code).toBe("OK");
    clock += 2 * MINUTE;
    const many = SETTLEMENTS_PER_TICK + 100;
    await Promise.all(
      Array.from({ length: many }, async (_, i) => {
        const member = String(2000 + i);
        await durable.funds.deposit(member, "USDT", "funding", "5", `big-${i}`);
        expect((await service.subscribe(member, { projectId: "NXA-BIG", quantity: i % 3 === 0 ? "20" : "10" }, `big-${i}`)).code).toBe("OK");
      }),
    );
    clock += 2 * MINUTE;
    expect(await service.tick()).toBe("OK");
    expect(durable.core.subscriptions.nextDue()).toBe(0);
    await durable.drain();

    const hash = durable.core.stateHash();
    const fromSnapshot = await expectSameStateOnRestart(durable, start, () => durable.core.subscriptions.checkInvariants());
    // Each finishes the settlement alike.
    const finish = async (core: DurableCore) => {
      clock += 5_000;
      expect(await new SubscriptionService(core).tick()).toBe("OK");
      return core.core.stateHash();
    };
    const settled = await finish(fromSnapshot);
    // Nothing waits now but the seeded windows still open.
    expect(fromSnapshot.core.subscriptions.nextDue()).toBeGreaterThan(clock);
    expect(fromSnapshot.core.subscriptions.checkInvariants()).toEqual([]);
    await fromSnapshot.drain();
    expect(settled).not.toBe(hash);
  });
});
