import { durableStarter, expectSameStateOnRestart } from "../testing/restart-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromMinor } from "../../protocol/money";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { testAct } from "../testing/operator-act";
import { trimDecimal } from "./contract-config";
import { createMember } from "../members/new-member";
import { noticeProduct } from "../notices/notice-product";
import { contractProduct } from "./contract-product";
import { ContractHistory } from "./contract-history";
import { ContractTape } from "./contract-tape";
import { ContractService } from "./contract-service";
import { seedContracts } from "./seed-contracts";
import { sums } from "../testing/ledger-sums";

/**
 * Decision 046: contracts on the durable layer. A session of every contract command, a
 * liquidation and funding among them, leaves the tables saying what the core holds, and a start
 * from the tables, and one from a snapshot, reach the state hash of the engine that ran it.
 */
describe.each(testStoreKinds())("perpetual contracts on the durable layer (%s)", (kind) => {
  let store: TestStore;
  let n = 0;
  const start = durableStarter(() => store.db, [contractProduct, noticeProduct()]);

  // Members are numbered (the tables keep member ids as numbers).
  const [ASKS, BIDS, CALM] = ["901", "902", "904"];
  // The member liquidated below is a real one: they are told (a notification needs its member's row).
  let BOLD = "903";

  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedContracts(store.db);
    BOLD = (await createMember(store.db, { account: { email: `bold-contracts-${kind}@example.com` }, password: null }, Date.now())).id;
  });
  afterAll(() => store.dispose());

  it("projects every command's rows and restores the same state from the tables and from a snapshot", async () => {
    const durable = await start();
    const contracts = new ContractService(durable, () => `o${kind}${++n}`);
    expect([...contracts.contracts.keys()].sort()).toEqual(["BTC/USD", "BTC/USDT", "ETH/USD", "ETH/USDT", "SOL/USDT", "XRP/USDT"]);
    const at0 = Date.UTC(2026, 10, 2, 7, 59, 0);
    const tick = (btc: string, at: number) =>
      contracts.tick(
        [
          ["BTC/USDT", btc],
          ["BTC/USD", btc],
        ],
        at,
      );
    // No mark yet: no order.
    // One-way positions (decision 045): a maker on each side.
    await durable.funds.deposit(ASKS, "USDT", "contract", "1000000", "cd-asks");
    await durable.funds.deposit(ASKS, "BTC", "contract", "20", "cd-asks-btc");
    await durable.funds.deposit(BIDS, "USDT", "contract", "1000000", "cd-bids");
    await durable.funds.deposit(BIDS, "BTC", "contract", "20", "cd-bids-btc");
    await durable.funds.deposit(BOLD, "USDT", "contract", "60", "cd-bold");
    await durable.funds.deposit(CALM, "USDT", "contract", "5000", "cd-calm");
    await durable.funds.deposit(CALM, "BTC", "contract", "1", "cd-calm-btc");
    const order = (symbol: string, side: "buy" | "sell", action: "open" | "close", price: string, quantity: string) => ({
      symbol,
      side,
      action,
      type: "limit" as const,
      price,
      quantity,
      tif: "GTC" as const,
    });
    expect((await contracts.placeOrder(CALM, order("BTC/USDT", "buy", "open", "50000", "1"), null)).code).toBe("CONTRACT_NO_PRICE");
    expect(await tick("50000", at0)).toBe("OK");

    // The makers quote; bold goes long 10 contracts at 100x, calm long and short at 10x.
    for (let i = 1; i <= 5; i++) {
      expect((await contracts.placeOrder(ASKS, order("BTC/USDT", "sell", "open", String(50_000 + i * 10), "100"), null)).code).toBe("OK");
      expect((await contracts.placeOrder(BIDS, order("BTC/USDT", "buy", "open", String(50_000 - i * 10), "100"), null)).code).toBe("OK");
      expect((await contracts.placeOrder(ASKS, order("BTC/USD", "sell", "open", String(50_000 + i * 10), "100"), null)).code).toBe("OK");
      expect((await contracts.placeOrder(BIDS, order("BTC/USD", "buy", "open", String(49_000 - i * 10), "100"), null)).code).toBe("OK");
    }
    expect(await contracts.setLeverage(BOLD, "BTC/USDT", 100)).toBe("OK");
    const bold = await contracts.placeOrder(BOLD, { ...order("BTC/USDT", "buy", "open", "50010", "10"), type: "market", price: undefined, tif: "IOC" }, "k1");
    expect(bold).toMatchObject({ code: "OK", status: "filled", filled: "10", remaining: "0" });
    // The retry of the same key answers the first order, and places nothing.
    expect(
      await contracts.placeOrder(BOLD, { ...order("BTC/USDT", "buy", "open", "50010", "10"), type: "market", price: undefined, tif: "IOC" }, "k1"),
    ).toEqual(bold);
    expect(await contracts.setLeverage(CALM, "BTC/USDT", 10)).toBe("OK");
    expect((await contracts.placeOrder(CALM, order("BTC/USDT", "buy", "open", "50020", "30"), null)).code).toBe("OK");
    expect((await contracts.placeOrder(CALM, order("BTC/USDT", "sell", "close", "51000", "10"), null)).code).toBe("OK");
    expect((await contracts.placeOrder(CALM, order("BTC/USD", "buy", "open", "50050", "200"), null)).status).toBe("filled");
    expect(await contracts.changeMargin(CALM, "BTC/USDT", "25")).toBe("OK");
    expect(await contracts.changeMargin(CALM, "BTC/USDT", "-100000")).toBe("CONTRACT_MARGIN_BELOW_INITIAL");
    const resting = await contracts.placeOrder(CALM, order("BTC/USD", "buy", "open", "45000", "50"), null);
    expect(await contracts.cancelOrder(CALM, resting.orderId!)).toBe("OK");
    expect(await contracts.cancelOrder(BOLD, resting.orderId!)).toBe("CONTRACT_UNKNOWN_ORDER");
    expect((await contracts.changeRules({ symbol: "BTC/USDT", takerFeeBps: 6 }, testAct())).code).toBe("OK");
    expect((await contracts.changeRules({ symbol: "BTC/USDT", maxQty: "0" }, testAct())).code).toBe("CONTRACT_BAD_RULES");

    // The index falls 1.5 %: bold's 100x long is liquidated; at 08:00 funding is paid.
    for (let s = 1; s <= 20; s++) expect(await tick(String(50_000 - s * 40), at0 + s * 3_000)).toBe("OK");
    await durable.drain();
    const { rows: liquidations } = await durable.db
      .selectFrom("contract_liquidation")
      .selectAll()
      .execute()
      .then((rows) => ({ rows }));
    expect(liquidations.map((l) => [l.kind, l.member_id, l.symbol])).toContainEqual(["liquidated", BOLD, "BTC/USDT"]);
    expect(durable.core.contracts.get("BTC/USDT")!.market.position(BOLD)).toBeUndefined();
    // Bold is told, linked to the contract's page.
    const told = await durable.db.selectFrom("member_notice").select(["type", "order_code", "params"]).where("member_id", "=", BOLD).execute();
    expect(told).toEqual([expect.objectContaining({ type: "contract_liquidated", order_code: "BTC_USDT" })]);
    expect(JSON.stringify(told[0]!.params)).toMatch(/"side":"long"/);
    const fundings = await durable.db.selectFrom("contract_funding").select(["member_id", "symbol", "amount"]).execute();
    expect(fundings.length).toBeGreaterThan(0);
    // And their history says so; funding paid or received is listed per member.
    const reads = new ContractHistory(durable.db, durable);
    const list = { symbols: ["BTC/USDT", "BTC/USD"], typeOf: () => 1 as const, page: 1, pageSize: 20 };
    expect((await reads.liquidations(BOLD, list)).list).toEqual([
      expect.objectContaining({ symbolName: "BTC/USDT", kind: "liquidated", side: "long", qty: "10" }),
    ]);
    const paid = await reads.funding(fundings[0]!.member_id, list);
    expect(paid.total).toBeGreaterThan(0);
    expect(paid.list[0]).toMatchObject({ rate: expect.stringMatching(/^-?0\.\d+$/), amount: expect.stringMatching(/^-?\d/) });
    // A liquidation the book cannot take (nobody bids SOL): the insurance fund takes it over, and
    // deleverages it against the profitable short at once; every row follows (the start from the
    // tables below restores exactly this).
    const THIN = "905";
    await durable.funds.deposit(THIN, "USDT", "contract", "200", "cd-thin");
    const sol = (price: string, at: number) => contracts.tick([["SOL/USDT", price]], at);
    expect(await sol("150", at0 + 70_000)).toBe("OK");
    expect((await contracts.placeOrder(ASKS, order("SOL/USDT", "sell", "open", "150", "100"), null)).code).toBe("OK");
    expect(await contracts.setLeverage(THIN, "SOL/USDT", 50)).toBe("OK");
    expect((await contracts.placeOrder(THIN, order("SOL/USDT", "buy", "open", "150", "100"), null)).status).toBe("filled");
    for (let s = 1; s <= 10; s++) await sol(String(150 - s), at0 + 70_000 + s * 1_000);
    const solMarket = durable.core.contracts.get("SOL/USDT")!.market;
    expect(solMarket.position(THIN)).toBeUndefined();
    await durable.drain();
    expect(
      await durable.db.selectFrom("contract_position").select("member_id").where("symbol", "=", "SOL/USDT").where("member_id", "=", THIN).execute(),
    ).toEqual([]);
    expect(
      (await durable.db.selectFrom("contract_liquidation").select(["kind", "member_id", "taken_over"]).where("symbol", "=", "SOL/USDT").execute()).map(
        (l) => l.kind,
      ),
    ).toEqual(["liquidated", "deleveraged"]);

    // Cross margin (decision 049): a member in cross mode with a position; the mode is in the tables and restored from them.
    const CROSS = "906";
    await durable.funds.deposit(CROSS, "USDT", "contract", "3000", "cd-cross");
    expect(await contracts.setMarginMode(CROSS, "BTC/USDT", "cross", "mode-1")).toBe("OK");
    expect(
      (await contracts.placeOrder(CROSS, { ...order("BTC/USDT", "buy", "open", "0", "5"), type: "market", price: undefined, tif: "IOC" }, null)).status,
    ).toBe("filled");
    expect(await contracts.setMarginMode(CROSS, "BTC/USDT", "isolated")).toBe("CONTRACT_POSITION_OPEN");
    expect(await contracts.changeMargin(CROSS, "BTC/USDT", "10")).toBe("CONTRACT_MARGIN_MODE");
    await durable.drain();
    expect(
      await durable.db.selectFrom("contract_leverage").select("margin_mode").where("member_id", "=", CROSS).where("symbol", "=", "BTC/USDT").executeTakeFirst(),
    ).toEqual({ margin_mode: "cross" });

    // Stop orders and a position's take profit and stop loss (decision 048): they wait, hold
    // nothing, and one fires on the mark's next move; its order keeps its id, and its member is told.
    const usdt = durable.core.contracts.get("BTC/USDT")!;
    const markNow = Number(fromMinor(usdt.mark!, usdt.config.spec.priceScale));
    const stop = (price: number, by: "mark" | "last", side: "buy" | "sell" = "buy") => ({
      ...order("BTC/USDT", side, "open", "0", "2"),
      type: "market" as const,
      price: undefined,
      tif: "IOC" as const,
      trigger: { by, price: price.toFixed(1) },
    });
    const waiting = await contracts.placeOrder(CALM, stop(markNow + 5_000, "mark"), "stop-1");
    expect(waiting).toMatchObject({ code: "OK", status: "waiting", remaining: "2" });
    expect(await contracts.placeOrder(CALM, stop(markNow + 5_000, "mark"), "stop-1")).toEqual(waiting);
    expect((await contracts.placeOrder(CALM, stop(markNow, "mark"), null)).code).toBe("CONTRACT_TRIGGER_PRICE");
    expect((await contracts.setPositionStops(CALM, { symbol: "BTC/USDT", triggerBy: "mark", takeProfit: "40000.0" }, null)).code).toBe(
      "CONTRACT_TRIGGER_PRICE",
    );
    const tpsl = await contracts.setPositionStops(CALM, { symbol: "BTC/USDT", triggerBy: "last", takeProfit: "60000.0", stopLoss: "40000.0" }, "tpsl-1");
    expect(tpsl.code).toBe("OK");
    await durable.funds.deposit(BOLD, "USDT", "contract", "1000", "cd-bold-2");
    expect(await contracts.setLeverage(BOLD, "BTC/USDT", 10)).toBe("OK");
    const fires = await contracts.placeOrder(BOLD, stop(markNow - 100, "mark", "sell"), null);
    expect(fires.status).toBe("waiting");
    for (let s = 1; s <= 15 && usdt.market.waitingStop(fires.orderId!); s++) await tick(String(49_200 - s * 30), at0 + 80_000 + s * 1_000);
    expect(usdt.market.waitingStop(fires.orderId!)).toBeUndefined();
    expect(usdt.market.position(BOLD)).toMatchObject({ side: "short", qty: 2n });
    await durable.drain();
    const stopRows = await durable.db.selectFrom("contract_stop").select(["stop_id", "status", "quantity"]).orderBy("seq").execute();
    expect(stopRows.map((r) => ({ ...r, quantity: r.quantity === null ? null : String(r.quantity) }))).toEqual([
      { stop_id: waiting.orderId, status: "waiting", quantity: "2" },
      { stop_id: tpsl.stopId, status: "waiting", quantity: null },
      { stop_id: fires.orderId, status: "triggered", quantity: "2" },
    ]);
    expect(await durable.db.selectFrom("contract_order").select("status").where("order_id", "=", fires.orderId!).executeTakeFirst()).toEqual({
      status: "filled",
    });
    expect(await durable.db.selectFrom("member_notice").select("type").where("member_id", "=", BOLD).orderBy("id").execute()).toEqual([
      { type: "contract_liquidated" },
      { type: "contract_stop_triggered" },
    ]);
    const calmStops = await reads.stops(CALM, { ...list, scope: "current" });
    expect(calmStops.list.map((x) => [x.stopId, x.quantity, x.triggerPrice, x.takeProfit, x.stopLoss, x.triggerBy])).toEqual([
      [tpsl.stopId, null, null, "60000", "40000", "last"],
      [waiting.orderId, "2", String(markNow + 5_000), null, null, "mark"],
    ]);
    expect((await reads.stops(BOLD, { ...list, scope: "history" })).list).toEqual([expect.objectContaining({ status: "triggered", direction: "2" })]);

    expect(await contracts.closePositions(CALM, ["BTC/USD"], "close-1")).toBe("OK");
    expect(await contracts.closePositions(CALM, ["BTC/USD"], "close-1")).toBe("OK");
    expect(durable.core.contracts.get("BTC/USD")!.market.position(CALM)).toBeUndefined();
    await durable.drain();

    // Every asset sums to zero; each contract's own books balance.
    for (const [asset, sum] of sums(durable)) expect(sum, asset).toBe(0n);
    expect(durable.core.ledger.checkInvariants()).toEqual([]);
    expect(durable.core.checkContractInvariants()).toEqual([]);

    // The tables say what the core holds.
    const positions = await durable.db.selectFrom("contract_position").selectAll().execute();
    const live = [...durable.core.contracts.values()].flatMap((p) =>
      [...p.market.positions()].map((x) => `${x.memberId} ${p.symbol} ${x.side} ${x.qty} ${fromMinor(x.margin, p.config.spec.settleScale)}`),
    );
    expect(positions.map((p) => `${p.member_id} ${p.symbol} ${p.side} ${p.qty} ${trimDecimal(String(p.margin))}`).sort()).toEqual(live.sort());
    expect(live.length).toBeGreaterThan(3);
    const open = await durable.db.selectFrom("contract_order").select("order_id").where("status", "=", "open").execute();
    const liveOpen = [...durable.core.contracts.values()].reduce((sum, p) => sum + p.market.restingOrders, 0);
    expect(open.length).toBe(liveOpen);
    // The k-lines the tables hold are those the live tape folded: a restart draws the same charts.
    const btc = durable.core.contracts.get("BTC/USDT")!;
    const reloaded = new ContractTape(durable);
    await reloaded.load();
    for (const source of ["last", "mark"] as const) {
      const shown = await contracts.tape.klines(btc, source, "1m", Date.now(), 50);
      expect(shown.length, source).toBeGreaterThan(0);
      expect(await reloaded.klines(btc, source, "1m", Date.now(), 50)).toEqual(shown);
    }
    // From the tables alone (no snapshot), then from a snapshot: the same state.
    await expectSameStateOnRestart(durable, start, () => durable.core.checkContractInvariants());
  });
});
