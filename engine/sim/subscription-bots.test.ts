import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedSubscriptions } from "../earn/sub-config";
import { subscriptionProduct } from "../earn/sub-product";
import { SubscriptionService } from "../earn/sub-service";
import { DurableCore } from "../journal/durable-core";
import { sums } from "../testing/ledger-sums";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { seedDemoMarkets } from "./demo-markets";
import { SubscriptionBots } from "./subscription-bots";

/** The simulator's subscribers (decision 053): they subscribe within the projects' rules, the short round ends oversubscribed, the ledger sound. */
describe("subscription bots", () => {
  let store: TestStore;
  let durable: DurableCore;
  let clock = Date.UTC(2026, 11, 3, 8, 0, 0);
  const installedAt = clock;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
    await seedSubscriptions(store.db, installedAt, false);
    durable = await DurableCore.start({
      db: store.db,
      products: [subscriptionProduct],
      now: () => clock,
      onFatal: (e) => {
        throw e;
      },
    });
  });
  afterAll(async () => {
    await durable?.drain();
    await store.dispose();
  });

  it("subscribe to the open projects only, and oversubscribe the short round", async () => {
    const service = new SubscriptionService(durable);
    const bots = new SubscriptionBots(service, ["993", "994", "995", "996", "997", "998"]);
    for (let i = 0; i < 60; i++) await bots.step();
    const subs = durable.core.subscriptions;
    const open = [...["993", "994", "995", "996", "997", "998"].flatMap((m) => [...subs.subscriptionsOf(m)])];
    expect(open.length).toBeGreaterThan(20);
    // Never the upcoming round.
    expect(open.some((s) => s.projectId === "NXA-R3")).toBe(false);
    const short = subs.projects.get("NXA-R1")!;
    expect(short.requested).toBeGreaterThan(short.supply);
    // Its window ends: allotted pro rata, returned at once.
    clock = short.endAt + 1_000;
    for (let i = 0; i < 5 && subs.nextDue() <= clock; i++) expect(await service.tick(clock)).toBe("OK");
    expect(subs.projects.get("NXA-R1")!.allottedAt).not.toBeNull();
    expect([...subs.subscriptionsOf("993")].some((s) => s.projectId === "NXA-R1")).toBe(false);
    for (const [asset, sum] of sums(durable)) expect(sum, asset).toBe(0n);
    expect(durable.core.subscriptions.checkInvariants()).toEqual([]);
  });
});
