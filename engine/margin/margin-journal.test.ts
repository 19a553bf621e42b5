import { durableStarter, expectSameStateOnRestart } from "../testing/restart-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDecimals, compareDecimal } from "../../protocol/money";
import { HOUR_MS } from "../core/margin/margin";
import { seedDemoMarkets } from "../sim/demo-markets";
import { spotProduct } from "../spot/spot-product";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { testAct } from "../testing/operator-act";
import { marginProduct } from "./margin-product";
import { seedMargin } from "./margin-config";
import { MarginService } from "./margin-service";
import { trimDecimal } from "../contracts/contract-config";

/**
 * Decision 050: margin on the durable layer. A session of every margin command (hours of interest
 * among them) leaves the tables saying what the core holds, and a start from the tables, and one
 * from a snapshot, reach the state hash of the engine that ran it.
 */
describe.each(testStoreKinds())("margin on the durable layer (%s)", (kind) => {
  let store: TestStore;
  let clock = Date.UTC(2026, 10, 3, 9, 58, 0);
  const start = durableStarter(
    () => store.db,
    [spotProduct, marginProduct],
    () => clock,
  );

  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedDemoMarkets(store.db);
    await seedMargin(store.db);
  });
  afterAll(() => store.dispose());

  it("projects every command's rows and restores the same state from the tables and from a snapshot", async () => {
    const durable = await start();
    const margin = new MarginService(durable);
    expect([...durable.core.margin.pairs.keys()]).toEqual(["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT"]);
    const [MAKER, TAKER, ALICE, BOB] = ["800", "801", "802", "803"];
    // BTC trades at 60 000: its margin value.
    await durable.funds.deposit(MAKER, "BTC", "spot", "1", "md-btc");
    await durable.funds.deposit(TAKER, "USDT", "spot", "100000", "md-usdt");
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
      expect(durable.core.usdtPrice("BTC")?.price).toBe(BigInt(price) * 100n);
    };
    await trade("60000", "t1");
    await durable.funds.deposit(ALICE, "USDT", "funding", "5000", "md-alice");
    await durable.funds.deposit(BOB, "USDT", "funding", "2000", "md-bob");

    const move = (scope: string, asset: string, amount: string) => ({ scope, asset, amount });
    expect(await margin.transfer(ALICE, { ...move("all", "USDT", "3000"), direction: "in" }, "a-in")).toBe("OK");
    // A retried transfer moves nothing again.
    expect(await margin.transfer(ALICE, { ...move("all", "USDT", "3000"), direction: "in" }, "a-in")).toBe("OK");
    expect(durable.core.ledger.posted({ owner: ALICE, kind: "funding", asset: "USDT" })).toBe(2000_00000000n);
    expect(await margin.borrow(ALICE, move("all", "BTC", "0.05"), "a-b1")).toBe("OK");
    expect(await margin.borrow(ALICE, move("all", "BTC", "0.05"), "a-b1")).toBe("OK");
    expect(durable.core.margin.loan(ALICE, "all", "BTC")?.principal).toBe(5_000_000n);
    expect(await margin.borrow(ALICE, move("all", "BTC", "5"), "a-b2")).toBe("MARGIN_OVER_LIMIT");
    expect(await margin.transfer(BOB, { ...move("BTC/USDT", "USDT", "1000"), direction: "in" }, "b-in")).toBe("OK");
    expect(await margin.setLeverage(BOB, "BTC/USDT", 10, "b-l")).toBe("OK");
    expect(await margin.setLeverage(BOB, "BTC/USDT", 20, "b-l2")).toBe("MARGIN_BAD_LEVERAGE");
    expect(await margin.borrow(BOB, move("BTC/USDT", "USDT", "8000"), "b-b1")).toBe("OK");
    expect((await margin.changePool({ asset: "USDT", hourlyRate: "0.00002" }, testAct())).code).toBe("OK");
    expect((await margin.changePool({ asset: "USDT", hourlyRate: "2" }, testAct())).code).toBe("MARGIN_BAD_RULES");
    // An operator puts DOGE/USDT on margin (its row written, the core's pair restored with the rest).
    expect((await margin.changePair("DOGE/USDT", 3, testAct())).code).toBe("OK");
    expect((await margin.changePair("DOGE/USDT", 30, testAct())).code).toBe("MARGIN_BAD_RULES");

    // Hours pass: 10:00 and 11:00 begin; Bob's level falls as BTC's does not matter (his debt is USDT, his assets USDT).
    clock += 2 * 60_000;
    expect(await margin.tick(clock)).toBe("OK");
    clock += HOUR_MS;
    expect(await margin.tick(clock)).toBe("OK");
    expect(await margin.repay(ALICE, move("all", "BTC", "0.01"), "a-r1")).toBe("OK");
    expect(await margin.repay(ALICE, move("all", "BTC", "1"), "a-r2")).toBe("MARGIN_REPAY_EXCEEDS");
    // Bob's isolated debt of 8 000 on 9 000 of assets: a level of 1.12, below the warning.
    expect(durable.core.margin.isWarned(BOB, "BTC/USDT")).toBe(true);
    await trade("61000", "t2");
    await durable.drain();

    const loans = await durable.db.selectFrom("margin_loan").selectAll().orderBy("member_id").execute();
    expect(loans.map((l) => [l.member_id, l.scope, l.asset, String(l.principal).replace(/\.?0+$/, "")])).toEqual([
      // 0.05 borrowed, three hours at 0.0003 %: 0.00000045 of interest, which her 0.01 repaid first.
      [ALICE, "all", "BTC", "0.04000045"],
      [BOB, "BTC/USDT", "USDT", "8000"],
    ]);
    const bobInterest = durable.core.margin.loan(BOB, "BTC/USDT", "USDT")!.interest;
    // 8 000 at 0.001 % for the first hour, then 0.002 % for the two begun since: 0.08 + 0.16 + 0.16.
    expect(bobInterest).toBe(40_000_000n);
    const records = await durable.db.selectFrom("margin_record").select(["member_id", "kind"]).orderBy("id").execute();
    expect(records.filter((r) => r.member_id === BOB).map((r) => r.kind)).toEqual(["in", "borrow", "interest", "interest", "interest"]);
    expect(records.filter((r) => r.member_id === ALICE).map((r) => r.kind)).toEqual(["in", "borrow", "interest", "interest", "interest", "repay"]);
    expect(await durable.db.selectFrom("margin_account").selectAll().where("member_id", "=", BOB).execute()).toEqual([
      { member_id: BOB, scope: "BTC/USDT", leverage: 10, warned: true },
    ]);
    expect(await durable.db.selectFrom("margin_pair").select(["symbol", "base", "quote", "max_leverage"]).where("symbol", "=", "DOGE/USDT").execute()).toEqual([
      { symbol: "DOGE/USDT", base: "DOGE", quote: "USDT", max_leverage: 3 },
    ]);
    expect(await durable.db.selectFrom("margin_pool").select("hourly_rate").where("asset", "=", "USDT").executeTakeFirst()).toEqual({
      hourly_rate: expect.stringMatching(/^0\.0000200*$/),
    });

    // Alice trades from her cross account: a buy that fills against the maker, and one that rests
    // (its hold on her margin account, restored from the tables with it); a stop waits there too.
    await durable.execute({
      type: "spot.place",
      memberId: MAKER,
      orderId: "ask-1",
      symbol: "BTC/USDT",
      side: "sell",
      orderType: "limit",
      tif: "GTC",
      price: "61000",
      quantity: "0.01",
    });
    const order = (orderId: string, price: string, extra: object = {}) =>
      durable.execute({
        type: "spot.place",
        memberId: ALICE,
        orderId,
        symbol: "BTC/USDT",
        side: "buy",
        orderType: "limit",
        tif: "GTC",
        price,
        quantity: "0.005",
        margin: "all",
        ...extra,
      });
    expect((await order("a-buy-1", "61000")).code).toBe("OK");
    expect((await order("a-buy-2", "59000")).code).toBe("OK");
    expect((await order("a-stop-1", "62000", { stopLossPrice: "61500" })).code).toBe("OK");
    await durable.drain();
    expect(
      await durable.db.selectFrom("spot_order").select(["order_id", "status", "account"]).where("member_id", "=", ALICE).orderBy("order_id").execute(),
    ).toEqual([
      { order_id: "a-buy-1", status: "filled", account: "margin" },
      { order_id: "a-buy-2", status: "open", account: "margin" },
      { order_id: "a-stop-1", status: "waiting", account: "margin" },
    ]);
    expect(durable.core.ledger.held({ owner: ALICE, kind: "margin", asset: "USDT" })).toBe(605_00000000n);

    // Carol goes all in at 10x on BTC; BTC falls and the loop liquidates her account through the
    // book: her order and the forced sale are spot's rows, the repayment margin's.
    const CAROL = "804";
    // (Alice's resting buy at 59 000 is taken back first: the fall below would fill it.)
    expect((await durable.execute({ type: "spot.cancel", memberId: ALICE, orderId: "a-buy-2" })).code).toBe("OK");
    await durable.funds.deposit(CAROL, "USDT", "funding", "1000", "md-carol");
    expect(await margin.transfer(CAROL, { ...move("BTC/USDT", "USDT", "1000"), direction: "in" }, "c-in")).toBe("OK");
    expect(await margin.setLeverage(CAROL, "BTC/USDT", 10)).toBe("OK");
    expect(await margin.borrow(CAROL, move("BTC/USDT", "USDT", "8000"), "c-b")).toBe("OK");
    await durable.funds.deposit(MAKER, "BTC", "spot", "1", "md-btc-2");
    await durable.execute({
      type: "spot.place",
      memberId: MAKER,
      orderId: "ask-2",
      symbol: "BTC/USDT",
      side: "sell",
      orderType: "limit",
      tif: "GTC",
      price: "60000",
      quantity: "0.15",
    });
    const allIn = await durable.execute({
      type: "spot.place",
      memberId: CAROL,
      orderId: "c-all",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "IOC",
      price: "60000",
      quantity: "0.15",
      margin: "BTC/USDT",
    });
    expect(allIn.code).toBe("OK");
    await durable.execute({
      type: "spot.place",
      memberId: TAKER,
      orderId: "bid-low",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: "52000",
      quantity: "1",
    });
    await trade("53000", "t3");
    clock += 1_000;
    expect(await margin.tick(clock)).toBe("OK");
    expect(durable.core.margin.loansOf(CAROL, "BTC/USDT").size).toBe(0);
    await durable.drain();
    const forced = await durable.db
      .selectFrom("spot_order")
      .select(["order_id", "side", "status", "account"])
      .where("member_id", "=", CAROL)
      .orderBy("seq")
      .execute();
    expect(forced).toEqual([
      { order_id: "c-all", side: "buy", status: "filled", account: "margin:BTC/USDT" },
      { order_id: expect.stringMatching(/^liq\./), side: "sell", status: "filled", account: "margin:BTC/USDT" },
    ]);
    // The sale (0.15 BTC less the buy's fee, at 52 000, less the sale's fee) repaid what it could of the
    // 8 000.16 owed (the first hour at the pool's new rate); the rest was written off (no insurance: the pool's).
    const carol = await durable.db.selectFrom("margin_record").select(["kind", "amount"]).where("member_id", "=", CAROL).orderBy("id").execute();
    expect(carol.map((r) => r.kind)).toEqual(["in", "borrow", "interest", "repay", "writeoff"]);
    expect(addDecimals(trimDecimal(String(carol[3]!.amount)), trimDecimal(String(carol[4]!.amount)))).toBe("8000.16");
    expect(compareDecimal(trimDecimal(String(carol[3]!.amount)), "7700")).toBe(1);

    // A margin order resting when the engine stops: its hold on Alice's cross account comes back from the tables.
    const ask = { type: "spot.place", memberId: ALICE, orderId: "a-sell-1", symbol: "BTC/USDT", side: "sell", orderType: "limit", tif: "GTC" } as const;
    expect((await durable.execute({ ...ask, price: "90000", quantity: "0.004", margin: "all" })).code).toBe("OK");

    // Bob pays back all he owes: his loan and his warning end, in the tables too.
    expect(await margin.repay(BOB, move("BTC/USDT", "USDT", "8000.4"), "b-r1")).toBe("OK");
    expect(durable.core.margin.isWarned(BOB, "BTC/USDT")).toBe(false);
    await durable.drain();
    expect(await durable.db.selectFrom("margin_account").select("warned").where("member_id", "=", BOB).executeTakeFirst()).toEqual({ warned: false });
    expect(await durable.db.selectFrom("margin_loan").select("asset").where("member_id", "=", BOB).execute()).toEqual([]);

    await expectSameStateOnRestart(durable, start, () => durable.core.margin.checkInvariants());
  });
});
