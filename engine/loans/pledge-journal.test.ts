import { durableStarter, expectSameStateOnRestart } from "../testing/restart-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOUR_MS } from "../core/margin/margin";
import { seedDemoMarkets } from "../sim/demo-markets";
import { spotProduct } from "../spot/spot-product";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { testAct } from "../testing/operator-act";
import { trimDecimal } from "../contracts/contract-config";
import { pledgeProduct } from "./pledge-product";
import { seedPledge, SEEDED_PRODUCTS } from "./pledge-config";
import { PledgeService } from "./pledge-service";

/**
 * Decision 051: crypto loans on the durable layer. A session of every loan command (hours of
 * interest, a repayment in full, a liquidation through the book) leaves the tables saying what the
 * core holds, and a start from the tables, and one from a snapshot, reach the same state hash.
 */
describe.each(testStoreKinds())("crypto loans on the durable layer (%s)", (kind) => {
  let store: TestStore;
  let clock = Date.UTC(2026, 10, 3, 9, 58, 0);
  const start = durableStarter(
    () => store.db,
    [spotProduct, pledgeProduct],
    () => clock,
  );

  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedDemoMarkets(store.db);
    await seedPledge(store.db);
  });
  afterAll(() => store.dispose());

  it("projects every command's rows and restores the same state from the tables and from a snapshot", async () => {
    const durable = await start();
    const loans = new PledgeService(durable);
    expect([...durable.core.pledges.products.keys()]).toEqual(SEEDED_PRODUCTS.map((p) => p.id));
    const [MAKER, TAKER, ALICE, BOB] = ["900", "901", "902", "903"];
    await durable.funds.deposit(MAKER, "BTC", "spot", "2", "pd-btc");
    await durable.funds.deposit(TAKER, "USDT", "spot", "200000", "pd-usdt");
    const trade = async (price: string, id: string) => {
      for (const side of ["sell", "buy"] as const) {
        const outcome = await durable.execute({
          type: "spot.place",
          memberId: side === "sell" ? MAKER : TAKER,
          orderId: `${id}-${side}`,
          symbol: "BTC/USDT",
          side,
          orderType: "limit",
          tif: side === "sell" ? "GTC" : "IOC",
          price,
          quantity: "0.001",
        });
        expect(outcome.code).toBe("OK");
      }
    };
    await trade("60000", "t1");
    await durable.funds.deposit(ALICE, "BTC", "funding", "1", "pd-alice");
    await durable.funds.deposit(BOB, "BTC", "funding", "1", "pd-bob");

    // Alice borrows 30 000 USDT for 7 days against 1 BTC (50 %); a retry borrows nothing again.
    const first = await loans.borrow(ALICE, { productId: "USDT-BTC-7", amount: "30000", collateral: "1" }, "a-b1");
    expect(first.code).toBe("OK");
    expect(await loans.borrow(ALICE, { productId: "USDT-BTC-7", amount: "30000", collateral: "1" }, "a-b1")).toEqual(first);
    expect((await loans.borrow(ALICE, { productId: "USDT-BTC-7", amount: "30000", collateral: "1" }, "a-b2")).code).toBe("PLEDGE_INSUFFICIENT");
    const alice = first.loanId!;
    // Bob borrows 38 000 flexible against 1 BTC (63 %): the one to be liquidated.
    const second = await loans.borrow(BOB, { productId: "USDT-BTC-0", amount: "38000", collateral: "1" }, "b-b1");
    expect(second.code).toBe("OK");
    expect((await loans.borrow(BOB, { productId: "USDT-BTC-0", amount: "100", collateral: "0.01" }, "b-b2")).code).toBe("PLEDGE_INSUFFICIENT");
    expect(await loans.changeCollateral(ALICE, alice, "0.5", "remove", "a-c1")).toBe("PLEDGE_LTV_TOO_HIGH");
    expect(await loans.changeCollateral(ALICE, alice, "0.2", "remove", "a-c2")).toBe("OK");
    expect(await loans.changeCollateral(ALICE, alice, "0.1", "add", "a-c3")).toBe("OK");
    expect(await loans.repay(BOB, alice, "1", "b-r0")).toBe("PLEDGE_UNKNOWN_LOAN");
    expect((await loans.setProduct({ ...productRules("USDT-BTC-30"), hourlyRate: "0.00002", overdueRate: "0.00004" }, testAct())).code).toBe("OK");
    expect((await loans.setProduct({ ...productRules("USDT-BTC-30"), initialLtv: "0.95" }, testAct())).code).toBe("PLEDGE_BAD_RULES");

    // Hours pass: 10:00 and 11:00 begin.
    clock += 2 * 60_000;
    expect(await loans.tick(clock)).toBe("OK");
    clock += HOUR_MS;
    expect(await loans.tick(clock)).toBe("OK");
    // 30 000 at 0.00095 % an hour for three hours begun: 0.855 of interest.
    expect(durable.core.pledges.loan(alice)?.interest).toBe(85_500_000n);
    expect(await loans.repay(ALICE, alice, "100", "a-r1")).toBe("OK");

    // BTC falls to 44 000 with a bid there: Bob's 38 000 over 44 000 is 86 % (warned), then 41 000 liquidates him.
    await durable.execute({
      type: "spot.place",
      memberId: TAKER,
      orderId: "bid-1",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: "41000",
      quantity: "1",
    });
    await trade("44000", "t2");
    clock += 1_000;
    expect(await loans.tick(clock)).toBe("OK");
    expect(durable.core.pledges.loan(second.loanId!)?.warned).toBe(true);
    await trade("41500", "t3");
    clock += 1_000;
    expect(await loans.tick(clock)).toBe("OK");
    expect(durable.core.pledges.loan(second.loanId!)).toBeUndefined();
    await durable.drain();

    const rows = await durable.db
      .selectFrom("pledge_loan")
      .select(["id", "member_id", "status", "principal", "collateral", "warned"])
      .orderBy("created_at")
      .execute();
    expect(rows.map((r) => [r.id, r.status, trimDecimal(String(r.principal)), trimDecimal(String(r.collateral))])).toEqual([
      [alice, "open", "29900.855", "0.9"],
      [second.loanId, "liquidated", "0", "0"],
    ]);
    const bobRecords = await durable.db.selectFrom("pledge_record").select(["kind", "amount"]).where("member_id", "=", BOB).orderBy("id").execute();
    expect(bobRecords.map((r) => r.kind)).toEqual(["borrow", "add", "interest", "interest", "interest", "liquidation"]);
    const forced = await durable.db.selectFrom("spot_order").select(["side", "status", "account"]).where("member_id", "=", BOB).execute();
    expect(forced).toEqual([{ side: "sell", status: "filled", account: `pledge:${second.loanId}` }]);
    // The sale at 41 000 (less its fee) covered the 38 000 and its interest: what was left came back to Bob.
    expect(durable.core.ledger.posted({ owner: BOB, kind: "funding", asset: "USDT" }) > 38_000_00000000n).toBe(true);
    expect(await durable.db.selectFrom("pledge_product").select("hourly_rate").where("id", "=", "USDT-BTC-30").executeTakeFirst()).toEqual({
      hourly_rate: expect.stringMatching(/^0\.0000200*$/),
    });

    await expectSameStateOnRestart(durable, start, () => durable.core.pledges.checkInvariants());
  });
});

function productRules(id: string) {
  const row = SEEDED_PRODUCTS.find((p) => p.id === id)!;
  return {
    id,
    loanAsset: row.loan_asset,
    collateralAsset: row.collateral_asset,
    termDays: row.term_days,
    hourlyRate: row.hourly_rate,
    overdueRate: row.overdue_rate,
    initialLtv: row.initial_ltv,
    callLtv: row.call_ltv,
    liquidationLtv: row.liquidation_ltv,
    minAmount: row.min_amount,
    maxAmount: row.max_amount,
    enabled: true,
  };
}
