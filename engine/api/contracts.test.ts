import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { addDecimals, compareDecimal } from "../../protocol/money";
import { buildApp } from "../app";
import { MarketData } from "../market/market-data";
import { contractProduct } from "../contracts/contract-product";
import { ContractService } from "../contracts/contract-service";
import { seedContracts } from "../contracts/seed-contracts";
import { DurableCore } from "../journal/durable-core";
import { SpotService } from "../spot/spot-service";
import { spotProduct } from "../spot/spot-product";
import { ApiClient, type Caller } from "../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

/** Issue 30 over the API (spec §7): the public contract reads, and a member's orders, positions, leverage, margin and one-key close. */
describe.each(testStoreKinds())("contracts API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let contracts: ContractService;
  let marketData: MarketData;
  let client: ApiClient;
  const members: Record<string, { token: string; uid: string }> = {};

  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedContracts(store.db);
    const durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, contractProduct],
      onFatal: (e) => {
        throw e;
      },
    });
    contracts = new ContractService(durable);
    const spot = new SpotService(durable);
    // The spot market data, for the header search (its contract list is the contracts').
    marketData = await MarketData.start({ db: store.db, spot });
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot,
      marketData,
      contracts,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob"]) {
      const { uid, token } = await registerAndLogIn(app, `${name}-contracts-${kind}@example.com`, `device-${name}`);
      members[name] = { token, uid };
      await client.data(
        endpoints.adminDeposit,
        { body: { uid, coin: "USDT", account: "funding", amount: "20000", reference: `c-${name}` } },
        { admin: TEST_ADMIN_TOKEN },
      );
      await client.data(endpoints.transfer, { query: { from: "1", to: "4", coin: "USDT", amount: "10000", idempotencyKey: `c-trans-${name}` } }, { token });
    }
  });
  afterAll(async () => {
    marketData?.stop();
    await app?.close();
    await store?.dispose();
  });

  const as = (name: string): Caller => ({ token: members[name]!.token });
  const place = (name: string, action: "open" | "close", type: "1" | "2", body: object) =>
    client.callUnchecked(endpoints.placeContractOrder, { params: { action, type }, body }, as(name));

  it("lists the contracts with their rules, and their state once the index has a price", async () => {
    const all = await client.data(endpoints.getContract, {});
    expect(all.map((c) => c.symbolName)).toEqual(["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT", "BTC/USD", "ETH/USD"]);
    const btc = all[0]!;
    expect(btc).toMatchObject({
      contract_type: 1,
      settleCoin: "USDT",
      contractSize: "0.001",
      contractUnit: "BTC",
      tickSize: "0.1",
      maxLeverage: 100,
      takerFeeRate: "0.0005",
    });
    expect((await client.data(endpoints.getContract, { query: { type: "2" } })).map((c) => [c.symbolName, c.contractUnit, c.settleCoin])).toEqual([
      ["BTC/USD", "USD", "BTC"],
      ["ETH/USD", "USD", "ETH"],
    ]);
    expect(await client.data(endpoints.maintenanceMargin, { params: { kind: "ubw" }, query: { symbolName: "BTC_USDT" } })).toContainEqual({
      maxValue: "50000",
      maxLeverage: 100,
      maintenanceRate: "0.004",
    });
    expect((await client.call(endpoints.maintenanceMargin, { params: { kind: "bbw" }, query: { symbolName: "BTC_USDT" } })).code).toBe(404);
    expect(await client.data(endpoints.getFundingRate, { query: { symbolName: "BTC_USDT" } })).toMatchObject({ markPrice: null, nextFundingTime: null });
    // No mark yet: an order is refused with the reason, nothing changes.
    expect(await place("alice", "open", "1", { symbol: "BTC_USDT", direction: "1", price: "50000", num: "1", idempotencyKey: "a-nomark-key-1" })).toMatchObject(
      {
        code: 400,
        reason: "CONTRACT_NO_PRICE",
      },
    );
    expect(
      await contracts.tick(
        [
          ["BTC/USDT", "50000"],
          ["BTC/USD", "50000"],
        ],
        Date.UTC(2026, 10, 3, 1),
      ),
    ).toBe("OK");
    const [state] = await client.data(endpoints.contractDetail, { body: { symbolNameList: ["BTC_USDT"], type: "1" } });
    expect(state).toMatchObject({
      symbolName: "BTC/USDT",
      markPrice: "50000",
      indexPrice: "50000",
      fundingRate: "0.0001",
      nextFundingTime: Date.UTC(2026, 10, 3, 8),
    });
  });

  it("trades, shows positions, changes leverage and margin, closes at one key, and refuses bad input with the reason", async () => {
    expect(
      (await client.call(endpoints.updateLeverage, { body: { symbolName: "BTC_USDT", leverage: 10, idempotencyKey: "change-key-1" } }, as("bob"))).code,
    ).toBe(200);
    expect(await client.data(endpoints.contractLeverage, { query: { symbolName: "BTC_USDT" } }, as("bob"))).toEqual({
      symbolName: "BTC/USDT",
      leverage: 10,
      maxLeverage: 100,
      marginMode: "isolated",
    });
    // Cross margin (decision 049): set before trading, answered once per key; a mode that does not exist is refused.
    const mode = (name: string, body: object) => client.callUnchecked(endpoints.updateMarginMode, { body: { symbolName: "BTC_USDT", ...body } }, as(name));
    expect(await mode("bob", { mode: "cross", idempotencyKey: "mode-key-1" })).toMatchObject({ code: 200, data: { marginMode: "cross" } });
    expect(await mode("bob", { mode: "both", idempotencyKey: "mode-key-2" })).toMatchObject({ code: 400, reason: "VALIDATION" });
    expect((await client.data(endpoints.contractLeverage, { query: { symbolName: "BTC_USDT" } }, as("bob"))).marginMode).toBe("cross");
    const ask = await place("bob", "open", "1", { symbol: "BTC_USDT", direction: "2", price: "50010", num: "100", idempotencyKey: "b-ask-key-1" });
    expect(ask, JSON.stringify(ask)).toMatchObject({ code: 200, data: { status: "open", filled: "0", remaining: "100" } });
    // A market buy of 50 contracts fills at the ask; its retry answers the same and buys nothing more.
    const buy = { symbol: "BTC_USDT", direction: "1", num: "50", idempotencyKey: "a-buy-key-1" };
    const bought = await place("alice", "open", "2", buy);
    expect(bought).toMatchObject({ code: 200, data: { status: "filled", filled: "50", remaining: "0", trades: 1 } });
    expect((await place("alice", "open", "2", buy)).data).toEqual(bought.data);
    const [position] = await client.data(endpoints.myPositions, { params: { type: "1" } }, as("alice"));
    expect(position).toMatchObject({
      symbolName: "BTC/USDT",
      side: "long",
      qty: "50",
      entryPrice: "50010",
      leverage: 20,
      markPrice: "50000",
      unrealisedPnl: "-0.5",
    });
    expect(await client.data(endpoints.myPositions, { params: { type: "2" } }, as("alice"))).toEqual([]);
    // The preview before opening more: at the mark, alice's long would be liquidated below it; a short is hers to close first.
    const preview = await client.data(endpoints.previewContractOrder, { query: { symbolName: "BTC_USDT", num: "10" } }, as("alice"));
    expect(preview).toMatchObject({ symbolName: "BTC/USDT", price: "50000", leverage: 20, short: null });
    expect(compareDecimal(preview.long!.liquidationPrice!, "50000")).toBe(-1);
    expect(compareDecimal(preview.long!.liquidationPrice!, "45000")).toBe(1);
    const previewAt = (price: string, num = "10") =>
      client.callUnchecked(endpoints.previewContractOrder, { query: { symbolName: "BTC_USDT", num, price } }, as("alice"));
    expect(await previewAt("50000.55")).toMatchObject({ code: 400, reason: "CONTRACT_TICK" });
    expect(await previewAt("50000", "1.5")).toMatchObject({ code: 400, reason: "VALIDATION" });
    expect((await client.callUnchecked(endpoints.previewContractOrder, { query: { symbolName: "BTC_USDT", num: "1" } })).code).toBe(401);
    // The trade log as CSV: alice's one fill, exact; the other type has none; an unknown contract is refused.
    const csv = await client.send(endpoints.exportContractTradeLog, { body: { type: "1", symbol: "BTC_USDT" } }, as("alice"));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toMatch(/^attachment; filename="contract-trades-BTC_USDT-\d{8}\.csv"$/);
    const rows = csv.body.split("\r\n");
    expect(rows[0]).toBe("Time (UTC),Trade ID,Order ID,Contract,Direction,Role,Price,Contracts,Fee,Realised profit,Settlement coin");
    expect(rows[1]).toMatch(/,BTCUSDT,Open long,taker,50010,50,1\.25025,0,USDT$/);
    expect(rows.slice(2)).toEqual([""]);
    expect((await client.send(endpoints.exportContractTradeLog, { body: { type: "2" } }, as("alice"))).body.split("\r\n")).toHaveLength(2);
    expect((await client.callUnchecked(endpoints.exportContractTradeLog, { body: { type: "1", symbol: "DOGE_USDT" } }, as("alice"))).code).toBe(404);
    // The wallet's contract account (t=4): the margin that moved into the position still counts in its value, beside the profit at the mark.
    const usdt = (await client.data(endpoints.currencyAccount, { query: { type: "4" } }, as("alice"))).find((c) => c.coin === "USDT")!;
    expect(usdt).toMatchObject({ margin: position!.margin, unrealised: "-0.5" });
    expect(compareDecimal(usdt.usdt!, addDecimals(addDecimals(usdt.available, usdt.frozen), usdt.margin!))).toBe(0);
    const accounts = await client.data(endpoints.walletAccounts, {}, as("alice"));
    expect(accounts.find((a) => a.type === "4")!.usdt).toBe(usdt.usdt);
    expect((await client.data(endpoints.currencyAccount, { query: { type: "2" } }, as("alice")))[0]).not.toHaveProperty("margin");
    // The page's one read of the market: the 50 left of bob's ask in the book, the trade on the tape.
    const goods = await client.data(endpoints.contractGoods, { query: { symbolName: "BTC_USDT", levels: "5" } });
    expect(goods.info.symbolName).toBe("BTC/USDT");
    expect(goods.state.lastPrice).toBe("50010");
    expect(goods.depth.asks).toEqual([["50010", "50"]]);
    expect(goods.trades).toMatchObject([{ price: "50010", quantity: "50", side: "buy" }]);
    expect((await client.callUnchecked(endpoints.contractGoods, { query: { symbolName: "DOGE_USDT" } })).code).toBe(404);
    // Its k-lines: the last price's minute candle counts the trade (50 contracts of 0.001 BTC at 50,010 is 2,500.5 USDT);
    // the mark's has the tick's price and no volume. A period or price that does not exist is refused.
    const kline = (source: "last" | "mark") => client.data(endpoints.contractKline, { query: { symbolName: "BTC_USDT", source, period: "1m" } });
    expect((await kline("last")).at(-1)).toMatchObject({ o: "50010", h: "50010", l: "50010", c: "50010", v: "50", a: "2500.5" });
    expect((await kline("mark")).at(-1)).toMatchObject({ o: "50000", c: "50000", v: "0" });
    expect((await client.callUnchecked(endpoints.contractKline, { query: { symbolName: "BTC_USDT", period: "2m" } })).code).toBe(400);
    // The market list's contract tabs (market/initData?type=1|2) and the header search's contract list carry the contracts' tickers.
    const ubw = await client.data(endpoints.marketInitData, { query: { type: "1" } });
    expect(ubw.map((m) => m.symbolName)).toEqual(["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT"]);
    expect(ubw[0]).toMatchObject({ contract_type: 1, close: "50010", vol: "50", amount: "2500.5", zdf: "0" });
    const bbw = await client.data(endpoints.marketInitData, { query: { type: "2" } });
    expect(bbw.map((m) => [m.symbolName, m.contract_type, m.close])).toEqual([
      ["BTC/USD", 2, null],
      ["ETH/USD", 2, null],
    ]);
    const found = await client.data(endpoints.marketSearch, { query: { q: "btc" } });
    expect(found.contractsListed).toBe(true);
    expect(found.contract.map((r) => [r.symbol, r.contract_type, r.price])).toEqual([
      ["BTC/USDT", 1, "50010"],
      ["BTC/USD", 2, null],
    ]);
    expect((await client.callUnchecked(endpoints.contractKline, { query: { symbolName: "BTC_USDT", source: "index", period: "1m" } })).code).toBe(400);

    // Refusals: the path and the direction disagree; a fraction of a contract; a leverage of 0; another member's order.
    expect(await place("alice", "close", "1", { symbol: "BTC_USDT", direction: "1", price: "50000", num: "1", idempotencyKey: "a-bad-key-1" })).toMatchObject({
      code: 400,
      reason: "CONTRACT_DIRECTION",
    });
    expect(await place("alice", "open", "1", { symbol: "BTC_USDT", direction: "1", price: "50000", num: "1.5", idempotencyKey: "a-bad-key-2" })).toMatchObject({
      code: 400,
      reason: "VALIDATION",
    });
    expect(await place("alice", "open", "1", { symbol: "BTC_USDT", direction: "2", price: "50000", num: "1", idempotencyKey: "a-bad-key-3" })).toMatchObject({
      code: 400,
      reason: "CONTRACT_CLOSE_FIRST",
    });
    expect(
      (await client.callUnchecked(endpoints.updateLeverage, { body: { symbolName: "BTC_USDT", leverage: 0, idempotencyKey: "change-key-2" } }, as("alice")))
        .reason,
    ).toBe("VALIDATION");
    expect(await client.call(endpoints.cancelContractOrder, { body: { orderId: ask.data!.orderId } }, as("alice"))).toMatchObject({
      code: 400,
      reason: "CONTRACT_UNKNOWN_ORDER",
    });

    // Bob's short is cross: its margin is his free balance, none to add, and the mode stays while he holds it; Alice's is isolated.
    expect(position!.marginMode).toBe("isolated");
    const [short] = await client.data(endpoints.myPositions, { params: { type: "1" } }, as("bob"));
    expect(short).toMatchObject({ side: "short", marginMode: "cross" });
    // Backed by his free balance too, it is liquidated further from the mark than an isolated one of its margin would be.
    expect(compareDecimal(short!.liquidationPrice!, "60000")).toBe(1);
    expect(
      await client.call(endpoints.updateBond, { body: { symbolName: "BTC_USDT", amount: "50", idempotencyKey: "change-key-x" } }, as("bob")),
    ).toMatchObject({ code: 400, reason: "CONTRACT_MARGIN_MODE" });
    expect(await mode("bob", { mode: "isolated", idempotencyKey: "mode-key-3" })).toMatchObject({ code: 400, reason: "CONTRACT_POSITION_OPEN" });

    // Margin: more of it moves the liquidation price away; taking it below the initial margin is refused.
    const more = await client.data(endpoints.updateBond, { body: { symbolName: "BTC_USDT", amount: "50", idempotencyKey: "change-key-3" } }, as("alice"));
    expect(Number(more.liquidationPrice)).toBeLessThan(Number(position!.liquidationPrice));
    // Its retry moves nothing again; the key with another amount is refused.
    expect(
      (await client.data(endpoints.updateBond, { body: { symbolName: "BTC_USDT", amount: "50", idempotencyKey: "change-key-3" } }, as("alice"))).margin,
    ).toBe(more.margin);
    expect(
      await client.call(endpoints.updateBond, { body: { symbolName: "BTC_USDT", amount: "60", idempotencyKey: "change-key-3" } }, as("alice")),
    ).toMatchObject({
      code: 409,
      reason: "IDEMPOTENCY_KEY_REUSED",
    });
    expect(
      await client.call(endpoints.updateBond, { body: { symbolName: "BTC_USDT", amount: "-1000", idempotencyKey: "change-key-4" } }, as("alice")),
    ).toMatchObject({
      code: 400,
      reason: "CONTRACT_MARGIN_BELOW_INITIAL",
    });
    // A lower leverage takes margin from the free balance.
    expect(
      (await client.call(endpoints.updateLeverage, { body: { symbolName: "BTC_USDT", leverage: 5, idempotencyKey: "change-key-5" } }, as("alice"))).code,
    ).toBe(200);
    const [lower] = await client.data(endpoints.myPositions, { params: { type: "1" } }, as("alice"));
    expect(lower).toMatchObject({ leverage: 5, margin: "500.1" });

    // Bob's rest and a bid for alice's close: bob reduces his short with a resting buy close.
    expect((await place("bob", "close", "1", { symbol: "BTC_USDT", direction: "4", price: "49990", num: "20", idempotencyKey: "b-bid-key-1" })).code).toBe(200);
    const current = await client.data(endpoints.contractOrders, { params: { type: "1", scope: "current", pageNo: "1" } }, as("bob"));
    expect(current.list.map((o) => [o.direction, o.quantity, o.filled, o.status])).toEqual([
      ["4", "20", "0", "open"],
      ["2", "100", "50", "open"],
    ]);
    const closed = await client.data(endpoints.closeAllPositions, { body: { contractType: "1", idempotencyKey: "a-close-key-1" } }, as("alice"));
    expect(closed).toEqual({ symbols: ["BTC/USDT"] });
    // Its retry (the position is partly gone by now) answers the first close and closes nothing more.
    expect((await client.call(endpoints.closeAllPositions, { body: { contractType: "1", idempotencyKey: "a-close-key-1" } }, as("alice"))).code).toBe(200);
    const [left] = await client.data(endpoints.myPositions, { params: { type: "1" } }, as("alice"));
    expect(left).toMatchObject({ qty: "30" });
    const done = await client.data(endpoints.contractOrders, { params: { type: "1", scope: "history", pageNo: "1" } }, as("alice"));
    expect(done.total).toBe(2);
    expect(done.list[0]).toMatchObject({ direction: "3", filled: "20", status: "cancelled", averagePrice: "49990", realised: "-0.4" });
    expect(done.list[1]).toMatchObject({ direction: "1", filled: "50", status: "filled", averagePrice: "50010", fee: "1.25025" });
  });

  it("places stop orders and a position's take profit and stop loss, lists and cancels them, and refuses bad ones with the reason", async () => {
    // Alice still holds 30 long (the test above); the mark is 50,000.
    const stop = { symbol: "BTC_USDT", direction: "1", num: "5", triggerPrice: "51000", triggerBy: "mark", idempotencyKey: "a-stop-key-1" };
    const waiting = await place("alice", "open", "2", stop);
    expect(waiting).toMatchObject({ code: 200, data: { status: "waiting", filled: "0", remaining: "5", trades: 0 } });
    expect((await place("alice", "open", "2", stop)).data).toEqual(waiting.data);
    expect(await place("alice", "open", "2", { ...stop, triggerBy: "index", idempotencyKey: "a-stop-key-2" })).toMatchObject({
      code: 400,
      reason: "VALIDATION",
    });
    const atMark = await place("alice", "open", "2", { ...stop, triggerPrice: "50000", idempotencyKey: "a-stop-key-3" });
    expect(atMark).toMatchObject({ code: 400, reason: "CONTRACT_TRIGGER_PRICE" });
    expect(atMark.msg).toMatch(/trigger price/);
    expect(await place("alice", "close", "2", { ...stop, direction: "3", num: "31", triggerPrice: "49000", idempotencyKey: "a-stop-key-4" })).toMatchObject({
      code: 400,
      reason: "CONTRACT_CLOSE_TOO_MUCH",
    });
    const tpsl = (body: object) =>
      client.callUnchecked(endpoints.setPositionTpsl, { body: { symbolName: "BTC_USDT", idempotencyKey: "a-tpsl-key-0", ...body } }, as("alice"));
    expect(await tpsl({})).toMatchObject({ code: 400, reason: "VALIDATION" });
    expect(await tpsl({ takeProfit: "49000", idempotencyKey: "a-tpsl-key-2" })).toMatchObject({ code: 400, reason: "CONTRACT_TRIGGER_PRICE" });
    expect(await tpsl({ takeProfit: "55000", stopLoss: "45000.55", idempotencyKey: "a-tpsl-key-3" })).toMatchObject({
      code: 400,
      reason: "CONTRACT_TRIGGER_PRICE",
    });
    const set = await tpsl({ takeProfit: "55000", stopLoss: "45000", triggerBy: "last", idempotencyKey: "a-tpsl-key-1" });
    expect(set).toMatchObject({ code: 200, data: { stopId: expect.any(String) } });
    const [position] = await client.data(endpoints.myPositions, { params: { type: "1" } }, as("alice"));
    expect(position!.tpsl).toEqual({ stopId: set.data!.stopId, triggerBy: "last", takeProfit: "55000", stopLoss: "45000" });
    const current = await client.data(endpoints.contractStops, { params: { type: "1", scope: "current", pageNo: "1" } }, as("alice"));
    expect(current.list.map((x) => [x.direction, x.quantity, x.triggerPrice, x.takeProfit, x.stopLoss, x.status])).toEqual([
      ["3", null, null, "55000", "45000", "waiting"],
      ["1", "5", "51000", null, null, "waiting"],
    ]);
    // Bob cannot cancel alice's stop; alice can, and it is in her history as cancelled by her.
    expect(await client.call(endpoints.cancelContractOrder, { body: { orderId: waiting.data!.orderId } }, as("bob"))).toMatchObject({
      code: 400,
      reason: "CONTRACT_UNKNOWN_ORDER",
    });
    expect((await client.call(endpoints.cancelContractOrder, { body: { orderId: waiting.data!.orderId } }, as("alice"))).code).toBe(200);
    const history = await client.data(endpoints.contractStops, { params: { type: "1", scope: "history", pageNo: "1" } }, as("alice"));
    expect(history.list).toEqual([expect.objectContaining({ stopId: waiting.data!.orderId, status: "cancelled", reason: "user" })]);
    expect((await client.callUnchecked(endpoints.contractStops, { params: { type: "1", scope: "waiting", pageNo: "1" } }, as("alice"))).code).toBe(400);
  });

  it("lets operators halt a contract and change its rules (audited), and refuses rules it cannot run", async () => {
    const admin = { admin: TEST_ADMIN_TOKEN };
    const listed = await client.data(endpoints.opsContracts, {}, admin);
    expect(listed.map((c) => c.info.symbolName)).toHaveLength(6);
    expect((await client.call(endpoints.opsContracts, {}, as("alice"))).code).not.toBe(200);
    expect(await client.data(endpoints.adminContractRules, { body: { symbol: "BTC_USDT", halted: true, takerFeeBps: 6 } }, admin)).toMatchObject({
      halted: true,
      takerFeeRate: "0.0006",
    });
    expect(await place("alice", "open", "1", { symbol: "BTC_USDT", direction: "1", price: "50000", num: "1", idempotencyKey: "a-halted-key-1" })).toMatchObject(
      {
        code: 400,
        reason: "CONTRACT_HALTED",
      },
    );
    expect(await client.call(endpoints.adminContractRules, { body: { symbol: "BTC_USDT", priceBand: "0.9" } }, admin)).toMatchObject({
      code: 400,
      reason: "CONTRACT_BAD_RULES",
    });
    expect(await client.call(endpoints.adminContractRules, { body: { symbol: "BTC_USDT", minQty: "10", maxQty: "5" } }, admin)).toMatchObject({
      code: 400,
      reason: "CONTRACT_BAD_RULES",
    });
    expect((await client.data(endpoints.adminContractRules, { body: { symbol: "BTC_USDT", halted: false } }, admin)).halted).toBe(false);
    const audit = await store.db.selectFrom("operator_audit").select(["action", "target"]).where("target", "=", "contract:BTC/USDT").execute();
    expect(audit).toHaveLength(2);
  });

  it("shows operators each settlement coin's insurance fund, fees and deficit, and moves fees into a fund once per key (audited)", async () => {
    const admin = { admin: TEST_ADMIN_TOKEN };
    const before = await client.data(endpoints.opsContractFunds, {}, admin);
    expect(before.map((f) => f.coin)).toEqual(["BTC", "ETH", "USDT"]);
    const usdt = before.find((f) => f.coin === "USDT")!;
    // The trades above paid fees.
    expect(compareDecimal(usdt.fees, "1")).toBe(1);
    expect(usdt.deficit).toBe("0");
    const move = { coin: "USDT", amount: "1", idempotencyKey: "insurance-key-1" };
    const moved = await client.data(endpoints.adminFundInsurance, { body: move }, admin);
    expect(moved).toMatchObject({ coin: "USDT", insurance: addDecimals(usdt.insurance, "1") });
    expect(compareDecimal(addDecimals(moved.fees, "1"), usdt.fees)).toBe(0);
    // A retry of the key answers the first move and moves nothing again; the key with another amount is refused.
    expect((await client.data(endpoints.adminFundInsurance, { body: move }, admin)).insurance).toBe(moved.insurance);
    expect((await client.data(endpoints.opsContractFunds, {}, admin)).find((f) => f.coin === "USDT")!.insurance).toBe(moved.insurance);
    expect(await client.call(endpoints.adminFundInsurance, { body: { ...move, amount: "2" } }, admin)).toMatchObject({ code: 409 });
    // More than the fees, a coin no contract settles in, bad numbers, a member: refused, nothing moved.
    expect(
      await client.call(endpoints.adminFundInsurance, { body: { coin: "USDT", amount: "100000000", idempotencyKey: "insurance-key-2" } }, admin),
    ).toMatchObject({
      code: 400,
      reason: "CONTRACT_FEES_SHORT",
    });
    expect((await client.call(endpoints.adminFundInsurance, { body: { coin: "DOGE", amount: "1", idempotencyKey: "insurance-key-3" } }, admin)).code).toBe(404);
    expect((await client.call(endpoints.adminFundInsurance, { body: { coin: "USDT", amount: "-1", idempotencyKey: "insurance-key-4" } }, admin)).code).toBe(
      400,
    );
    expect(
      (await client.call(endpoints.adminFundInsurance, { body: { coin: "USDT", amount: "1", idempotencyKey: "insurance-key-5" } }, as("alice"))).code,
    ).not.toBe(200);
    expect((await client.data(endpoints.opsContractFunds, {}, admin)).find((f) => f.coin === "USDT")!.insurance).toBe(moved.insurance);
    const audit = await store.db.selectFrom("operator_audit").select(["action", "target"]).where("target", "=", "insurance:USDT").execute();
    expect(audit).toHaveLength(1);
  });
});
