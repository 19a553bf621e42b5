import { durableStarter, expectSameStateOnRestart } from "../testing/restart-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../core/earn/staking";
import { trimDecimal } from "../contracts/contract-config";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { testAct } from "../testing/operator-act";
import { seedStaking, SEEDED_STAKE_PRODUCTS } from "./stake-config";
import { stakeProduct } from "./stake-product";
import { StakeService } from "./stake-service";

/**
 * Decision 052: staking on the durable layer. A session of every staking command (days of
 * interest, a partial and a whole redemption, an early one, a maturity) leaves the tables saying
 * what the core holds, and a start from the tables (each stake's interest recomputed from its
 * period and the last day credited), and one from a snapshot, reach the same state hash.
 */
describe.each(testStoreKinds())("staking on the durable layer (%s)", (kind) => {
  let store: TestStore;
  let clock = Date.UTC(2028, 1, 27, 15, 10, 0);
  const start = durableStarter(
    () => store.db,
    [stakeProduct],
    () => clock,
  );

  beforeAll(async () => {
    store = await openTestStore(kind);
    // Staking needs only its coins listed (the demo markets list them).
    const { seedDemoMarkets } = await import("../sim/demo-markets");
    await seedDemoMarkets(store.db);
    await seedStaking(store.db);
  });
  afterAll(() => store.dispose());

  it("projects every command's rows and restores the same state from the tables and from a snapshot", async () => {
    const durable = await start();
    const staking = new StakeService(durable);
    expect([...durable.core.staking.products.keys()]).toEqual(SEEDED_STAKE_PRODUCTS.map((p) => p.id));
    const [ALICE, BOB] = ["950", "951"];
    await durable.funds.deposit(ALICE, "USDT", "funding", "50000", "sd-alice");
    await durable.funds.deposit(BOB, "ETH", "funding", "20", "sd-bob");

    const flexible = await staking.invest(ALICE, { productId: "USDT-0", amount: "10000" }, "s-1");
    const fixed = await staking.invest(ALICE, { productId: "USDT-7", amount: "3000" }, "s-2");
    const early = await staking.invest(BOB, { productId: "ETH-30", amount: "5" }, "s-3");
    expect([flexible.code, fixed.code, early.code]).toEqual(["OK", "OK", "OK"]);
    expect((await staking.invest(ALICE, { productId: "USDT-0", amount: "10000" }, "s-1")).stakeId).toBe(flexible.stakeId);
    expect((await staking.invest(ALICE, { productId: "USDT-90", amount: "1" }, "s-4")).code).toBe("STAKE_BELOW_MINIMUM");
    // An operator lowers a rate: the stakes taken keep theirs.
    const rules = SEEDED_STAKE_PRODUCTS.find((p) => p.id === "USDT-0")!;
    expect(
      (
        await staking.setProduct(
          {
            id: "USDT-0",
            asset: "USDT",
            termDays: 0,
            yearlyRate: "0.04",
            cap: rules.cap,
            minAmount: rules.min_amount,
            maxPerMember: rules.max_per_member,
            enabled: true,
          },
          testAct(),
        )
      ).code,
    ).toBe("OK");

    // Across the leap day, a day at a time: each day's start credits the day before.
    for (let day = 0; day < 4; day++) {
      clock += DAY_MS;
      expect(await staking.tick()).toBe("OK");
    }
    expect(await staking.redeem(ALICE, flexible.stakeId!, "4000", "r-1")).toBe("OK");
    expect(await staking.redeem(BOB, early.stakeId!, null, "r-2")).toBe("OK");
    expect(await staking.redeem(BOB, early.stakeId!, null, "r-2")).toBe("OK");
    expect(await staking.redeem(ALICE, fixed.stakeId!, "1000", "r-3")).toBe("STAKE_FIXED_WHOLE");
    // Past the 7 days: the fixed stake is paid at its maturity.
    clock += 4 * DAY_MS;
    expect(await staking.tick()).toBe("OK");
    expect(durable.core.staking.stake(fixed.stakeId!)).toBeUndefined();
    clock += 3_600_000;
    await durable.drain();

    const rows = await durable.db.selectFrom("stake").select(["id", "status", "principal", "rate"]).orderBy("created_at").orderBy("id").execute();
    expect(rows.map((r) => [r.id, r.status, trimDecimal(String(r.principal)), trimDecimal(String(r.rate))])).toEqual([
      [flexible.stakeId, "running", "6000", "0.05"],
      [fixed.stakeId, "matured", "3000", "0.08"],
      [early.stakeId, "early", "5", "0.05"],
    ]);
    const records = await durable.db.selectFrom("stake_record").select(["member_id", "kind", "interest", "forfeited"]).orderBy("id").execute();
    expect(records.map((r) => r.kind)).toEqual(["invest", "invest", "invest", "redeemed", "early", "matured"]);
    // 3,000 at 8 % for 7 days of 2028, a leap year: 3000 × 0.08 × 7 ÷ 366, rounded down.
    expect(trimDecimal(String(records[5]!.interest))).toBe("4.59016393");
    expect(Number(records[4]!.forfeited)).toBeGreaterThan(0);
    const state = await durable.db.selectFrom("stake_state").select("credited_through").executeTakeFirstOrThrow();
    expect(new Date(state.credited_through).getTime()).toBe(durable.core.staking.creditedThrough);
    expect(await durable.db.selectFrom("stake_product").select("yearly_rate").where("id", "=", "USDT-0").executeTakeFirst()).toEqual({
      yearly_rate: expect.stringMatching(/^0\.040*$/),
    });

    await expectSameStateOnRestart(durable, start, () => durable.core.staking.checkInvariants());
  });
});
