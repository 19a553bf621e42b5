import { verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareDecimal } from "../../protocol/money";
import { SpotService } from "../spot/spot-service";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { seedDemoMarkets } from "./demo-markets";
import { DEMO_ACCOUNT, DEMO_GRANT, ensureDemoMember, topUpDemoMember } from "./demo-member";

describe("demo member", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
  });
  afterAll(() => store?.dispose());

  it("is created once with its password and credited its grant once, across restarts", async () => {
    const spot = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
    });
    const first = await ensureDemoMember(store.db, spot);
    const again = await ensureDemoMember(store.db, spot);
    expect(again).toEqual(first);
    const row = await store.db.selectFrom("member").select("password_hash").where("id", "=", first.memberId).executeTakeFirstOrThrow();
    expect(await verify(row.password_hash, DEMO_ACCOUNT.password)).toBe(true);

    const expected = Object.fromEntries(DEMO_GRANT);
    const held = (s: SpotService) =>
      Object.fromEntries(
        s.durable.funds
          .balances(first.memberId, "spot")
          .filter((b) => b.coin in expected)
          .map((b) => [b.coin, compareDecimal(b.available, expected[b.coin]!) === 0 ? expected[b.coin] : b.available]),
      );
    expect(held(spot)).toEqual(expected);

    // A restart runs it again: still one grant.
    await spot.durable.drain();
    const restarted = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
    });
    await ensureDemoMember(store.db, restarted);
    expect(held(restarted)).toEqual(expected);
    expect(restarted.durable.ledger.checkInvariants()).toEqual([]);

    // Spent below half of the grant: topped back up to it; a little spent: left as it is.
    await restarted.durable.funds.transferBetween(first.memberId, "USDT", "spot", "funding", "60000", "demo-test-spend-1");
    await restarted.durable.funds.transferBetween(first.memberId, "BTC", "spot", "funding", "0.1", "demo-test-spend-2");
    await topUpDemoMember(restarted, first.memberId, 1);
    expect(held(restarted).USDT).toBe("100000");
    expect(compareDecimal(restarted.durable.funds.balances(first.memberId, "spot").find((b) => b.coin === "BTC")!.available, "0.9")).toBe(0);
    expect(restarted.durable.ledger.checkInvariants()).toEqual([]);
    await restarted.durable.drain();
  });
});
