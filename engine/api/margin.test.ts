import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { DurableCore } from "../journal/durable-core";
import { seedMargin } from "../margin/margin-config";
import { marginProduct } from "../margin/margin-product";
import { MarginService } from "../margin/margin-service";
import { seedDemoMarkets } from "../sim/demo-markets";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

/** Issue 31 over the API (spec §7 "Wallet and margin"): a member's margin accounts, borrows, repayments, transfers, leverage and records; operators' pools. */
describe.each(testStoreKinds())("margin API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let durable: DurableCore;
  let client: ApiClient;
  const members: Record<string, { token: string; uid: string }> = {};

  /** A spot trade at `price` between two market makers: BTC's margin value. */
  const trade = async (price: string, id: string) => {
    for (const side of ["sell", "buy"] as const) {
      const outcome = await durable.execute({
        type: "spot.place",
        memberId: side === "sell" ? "7001" : "7002",
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

  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedDemoMarkets(store.db);
    await seedMargin(store.db);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, marginProduct],
      onFatal: (e) => {
        throw e;
      },
    });
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot: new SpotService(durable),
      margin: new MarginService(durable),
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    await durable.funds.deposit("7001", "BTC", "spot", "1", "mm-btc");
    await durable.funds.deposit("7002", "USDT", "spot", "100000", "mm-usdt");
    await trade("50000", "t1");
    for (const name of ["alice", "bob"]) {
      const { uid, token } = await registerAndLogIn(app, `${name}-margin-${kind}@example.com`, `device-${name}`);
      members[name] = { token, uid };
      await client.data(
        endpoints.adminDeposit,
        { body: { uid, coin: "USDT", account: "funding", amount: "5000", reference: `m-${name}` } },
        { admin: TEST_ADMIN_TOKEN },
      );
    }
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const as = (name: string, lang?: string): Caller => ({ token: members[name]!.token, ...(lang ? { lang } : {}) });

  it("lists the margin pairs and the pools' rates to anyone", async () => {
    const { crossLeverage, pairs } = await client.data(endpoints.marginPairs, {});
    expect(crossLeverage).toBe(3);
    expect(pairs.map((p) => [p.symbolName, p.maxLeverage])).toEqual([
      ["BTC/USDT", 10],
      ["ETH/USDT", 10],
      ["SOL/USDT", 5],
      ["XRP/USDT", 5],
    ]);
    const rates = await client.data(endpoints.marginRates, {});
    expect(rates.find((r) => r.coin === "USDT")).toEqual({
      coin: "USDT",
      hourlyRate: "0.00001",
      dailyRate: "0.00024",
      yearlyRate: "0.0876",
      minBorrow: "1",
      available: "5000000",
    });
  });

  it("borrows on cross margin within the leverage, once per key, and repays interest first", async () => {
    const empty = await client.data(endpoints.marginProperty, {}, as("alice"));
    expect(empty.cross).toMatchObject({ mode: "all", symbolName: null, leverage: 3, marginLevel: null, assetsValue: "0" });
    expect(empty.isolated.map((a) => a.symbolName)).toEqual(["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT"]);

    const moved = await client.data(
      endpoints.marginTransfer,
      { params: { mode: "all" }, body: { coin: "USDT", amount: "1000", direction: "in", idempotencyKey: "alice-in-0001" } },
      as("alice"),
    );
    expect(moved.coins.find((c) => c.coin === "USDT")).toMatchObject({ balance: "1000", owed: "0" });
    // 1 000 of equity at 3x: 2 000 USDT of debt, 0.04 BTC at 50 000.
    expect(await client.data(endpoints.canBorrow, { params: { mode: "all" }, body: { coin: "BTC" } }, as("alice"))).toEqual({
      coin: "BTC",
      canBorrow: "0.04",
      hourlyRate: "0.000003",
    });
    expect(await client.data(endpoints.preBorrow, { params: { mode: "all" }, body: { coin: "BTC", amount: "0.02" } }, as("alice"))).toEqual({
      coin: "BTC",
      amount: "0.02",
      canBorrow: "0.04",
      hourlyRate: "0.000003",
      firstHourInterest: "0.00000006",
      dailyInterest: "0.00000144",
      marginLevelAfter: "1.99",
    });

    // Too much: refused with the most that would pass, in the member's language; nothing changed.
    const tooMuch = await client.call(
      endpoints.borrow,
      { params: { mode: "all" }, body: { coin: "BTC", amount: "0.05", idempotencyKey: "alice-b-0001" } },
      as("alice", "de"),
    );
    expect(tooMuch).toMatchObject({ code: 400, reason: "MARGIN_OVER_LIMIT", msg: "Du kannst jetzt höchstens 0.04 BTC leihen." });
    expect(durable.core.margin.loan(members.alice!.uid, "all", "BTC")).toBeUndefined();

    const body = { coin: "BTC", amount: "0.02", idempotencyKey: "alice-b-0002" };
    const borrowed = await client.data(endpoints.borrow, { params: { mode: "all" }, body }, as("alice"));
    expect(borrowed.coins.find((c) => c.coin === "BTC")).toMatchObject({ balance: "0.02", borrowed: "0.02", interest: "0.00000006", owed: "0.02000006" });
    expect(borrowed.marginLevel).toBe("1.99");
    // The retry borrows nothing again.
    expect((await client.data(endpoints.borrow, { params: { mode: "all" }, body }, as("alice"))).coins.find((c) => c.coin === "BTC")?.borrowed).toBe("0.02");

    expect(
      await client.call(endpoints.repay, { params: { mode: "all" }, body: { coin: "BTC", amount: "0.03", idempotencyKey: "alice-r-0001" } }, as("alice")),
    ).toMatchObject({ code: 400, reason: "MARGIN_REPAY_EXCEEDS", msg: "You owe 0.02000006 BTC: repay at most that." });
    const repaid = await client.data(
      endpoints.repay,
      { params: { mode: "all" }, body: { coin: "BTC", amount: "0.01", idempotencyKey: "alice-r-0002" } },
      as("alice"),
    );
    expect(repaid.coins.find((c) => c.coin === "BTC")).toMatchObject({ borrowed: "0.01000006", interest: "0", balance: "0.01" });

    // Funds leave only while the level stays at 2.00: 1 000 + 500 over 500.003 leaves room for 499.99.
    expect(
      await client.call(
        endpoints.marginTransfer,
        { params: { mode: "all" }, body: { coin: "USDT", amount: "600", direction: "out", idempotencyKey: "alice-out-0001" } },
        as("alice"),
      ),
    ).toMatchObject({ code: 400, reason: "MARGIN_LEVEL_UNSAFE" });

    const records = await client.data(endpoints.marginRecords, { params: { mode: "all", pageNo: "1", pageSize: "10" } }, as("alice"));
    expect(records.records.map((r) => [r.kind, r.coin, r.amount])).toEqual([
      ["repay", "BTC", "0.01"],
      ["interest", "BTC", "0.00000006"],
      ["borrow", "BTC", "0.02"],
      ["in", "USDT", "1000"],
    ]);
    expect(records.records[0]).toMatchObject({ principal: "0.00999994", interest: "0.00000006", mode: "all", symbolName: null });
    // Bob sees none of it.
    expect((await client.data(endpoints.marginRecords, { params: { mode: "all", pageNo: "1", pageSize: "10" } }, as("bob"))).total).toBe(0);
    expect((await client.data(endpoints.marginProperty, {}, as("bob"))).cross.coins.every((c) => c.owed === "0")).toBe(true);
  });

  it("keeps isolated accounts apart, with their own leverage, and refuses what does not name one account", async () => {
    const inBtc = { coin: "USDT", amount: "500", direction: "in" as const, symbolName: "BTC_USDT", idempotencyKey: "bob-iso-in-01" };
    await client.data(endpoints.marginTransfer, { params: { mode: "fixed" }, body: inBtc }, as("bob"));
    const levered = await client.data(
      endpoints.updateMarginLeverage,
      { body: { symbolName: "BTC_USDT", leverage: 10, idempotencyKey: "bob-lev-0001" } },
      as("bob"),
    );
    expect(levered).toMatchObject({ mode: "fixed", symbolName: "BTC/USDT", leverage: 10, maxLeverage: 10 });
    expect(levered.coins.find((c) => c.coin === "USDT")?.canBorrow).toBe("4500");
    expect(
      (await client.call(endpoints.updateMarginLeverage, { body: { symbolName: "SOL_USDT", leverage: 8, idempotencyKey: "bob-lev-0002" } }, as("bob"))).reason,
    ).toBe("MARGIN_BAD_LEVERAGE");
    expect(
      (await client.call(endpoints.updateMarginLeverage, { body: { symbolName: "BTC_USDT", leverage: 11, idempotencyKey: "bob-lev-0003" } }, as("bob"))).reason,
    ).toBe("VALIDATION");
    const borrowed = await client.data(
      endpoints.borrow,
      { params: { mode: "fixed" }, body: { coin: "USDT", amount: "4000", symbolName: "BTC_USDT", idempotencyKey: "bob-iso-b-01" } },
      as("bob"),
    );
    expect(borrowed.coins.find((c) => c.coin === "USDT")).toMatchObject({ balance: "4500", borrowed: "4000", interest: "0.04" });
    // Cross is untouched by the isolated account.
    expect((await client.data(endpoints.marginAccount, { params: { mode: "all", symbol: "all" } }, as("bob"))).debtsValue).toBe("0");
    expect((await client.data(endpoints.marginAccount, { params: { mode: "fixed", symbol: "BTC_USDT" } }, as("bob"))).debtsValue).toBe("4000.04");

    const call = (mode: "all" | "fixed", body: Record<string, string>) =>
      client.callUnchecked(
        endpoints.borrow,
        {
          params: { mode },
          body: {
            amount: "1",
            idempotencyKey: `bob-bad-${Object.values(body)
              .join("-")
              .replace(/[^A-Za-z0-9]/g, "x")}`,
            ...body,
          },
        },
        as("bob"),
      );
    expect(await call("fixed", { coin: "USDT" })).toMatchObject({ code: 400, msg: "Name the symbol of the isolated margin account." });
    expect(await call("all", { coin: "USDT", symbolName: "BTC_USDT" })).toMatchObject({ code: 400 });
    expect(await call("fixed", { coin: "USDT", symbolName: "DOGE_USDT" })).toMatchObject({ code: 404, reason: "MARGIN_UNKNOWN_PAIR" });
    expect(await call("fixed", { coin: "ETH", symbolName: "BTC_USDT" })).toMatchObject({ code: 400, reason: "MARGIN_UNKNOWN_ASSET" });
    expect(await call("all", { coin: "USDT", amount: "-1" })).toMatchObject({ code: 400, reason: "VALIDATION" });
    expect(await call("all", { coin: "USDT", amount: "0.000000001" })).toMatchObject({ code: 400, reason: "MARGIN_BAD_AMOUNT" });
    expect(await call("all", { coin: "USDT", amount: "0.5" })).toMatchObject({
      code: 400,
      reason: "MARGIN_BELOW_MINIMUM",
      msg: "The smallest borrow of USDT is 1.",
    });
    // Bob's cross account holds nothing: nothing to borrow on.
    expect(await call("all", { coin: "USDT", amount: "5" })).toMatchObject({
      code: 400,
      reason: "MARGIN_OVER_LIMIT",
      msg: "You can borrow at most 0 USDT now.",
    });
    expect((await client.call(endpoints.marginProperty, {}, {})).code).toBe(401);
  });

  it("lists margin orders, their trades and records apart from spot ones, and exports them as CSV", async () => {
    const place = (name: string, body: { direction: "buy" | "sell"; idempotencyKey: string; tif?: "IOC"; dealType: "pry"; marginMode: "all" | "fixed" }) =>
      client.data(endpoints.placeOrder, { params: { type: "1" }, body: { symbol: "BTC_USDT", price: "60000", num: "0.001", ...body } }, as(name));
    // Alice sells from her cross account, Bob buys it from his isolated BTC/USDT account.
    const sold = await place("alice", { direction: "sell", dealType: "pry", marginMode: "all", idempotencyKey: "alice-mo-0001" });
    await place("bob", { direction: "buy", tif: "IOC", dealType: "pry", marginMode: "fixed", idempotencyKey: "bob-mo-0001" });
    const orders = (name: string, account?: "spot" | "all" | "fixed") =>
      client.data(endpoints.myOrders, { params: { scope: "history" }, query: account ? { account } : {} }, as(name));
    expect((await orders("alice", "all")).records.map((o) => [o.orderId, o.account, o.status])).toEqual([[sold.orderId, "all", "filled"]]);
    expect((await orders("alice", "spot")).total).toBe(0);
    expect((await orders("alice", "fixed")).total).toBe(0);
    expect((await orders("alice")).total).toBe(1);
    expect((await orders("bob", "fixed")).records.map((o) => [o.account, o.side, o.filled])).toEqual([["fixed", "buy", "0.001"]]);
    const trades = (name: string, account: "all" | "fixed") =>
      client.data(endpoints.myTrades, { params: { pageNo: "1", pageSize: "10", market: "spot" }, query: { account } }, as(name));
    expect((await trades("bob", "fixed")).records.map((t) => [t.side, t.price, t.quantity])).toEqual([["buy", "60000", "0.001"]]);
    expect((await trades("bob", "all")).total).toBe(0);
    expect((await trades("alice", "all")).total).toBe(1);
    expect(await client.callUnchecked(endpoints.myOrders, { params: { scope: "history" }, query: { account: "loan" } }, as("alice"))).toMatchObject({
      code: 400,
      reason: "VALIDATION",
    });

    const file = await client.send(endpoints.exportSpotTradeLog, { body: { scope: "history", account: "all" } }, as("alice"));
    expect(file.headers["content-disposition"]).toMatch(/^attachment; filename="margin-cross-order-history-\d{8}\.csv"$/);
    expect(file.body.trim().split("\r\n")[1]).toMatch(new RegExp(`,${sold.orderId},BTC/USDT,sell,limit,GTC,60000,.*,filled,,.*,all$`));

    const recordsFile = await client.send(endpoints.exportMarginRecords, { body: { mode: "all", kind: "borrow" } }, as("alice"));
    expect(recordsFile.headers["content-disposition"]).toMatch(/^attachment; filename="margin-cross-records-\d{8}\.csv"$/);
    const lines = recordsFile.body.trim().split("\r\n");
    expect(lines[0]).toBe("Time (UTC),Record ID,Mode,Symbol,Coin,Kind,Amount,Principal,Interest");
    expect(lines.slice(1).map((l) => l.split(",").slice(2).join(","))).toEqual(["all,,BTC,borrow,0.02,0.02,0"]);
    // A date range after today finds nothing; a range the wrong way round is refused.
    const future = await client.data(
      endpoints.marginRecords,
      { params: { mode: "all", pageNo: "1", pageSize: "10" }, query: { from: "2099-01-01" } },
      as("alice"),
    );
    expect(future.total).toBe(0);
    expect(
      await client.callUnchecked(
        endpoints.marginRecords,
        { params: { mode: "all", pageNo: "1", pageSize: "10" }, query: { from: "2026-02-02", to: "2026-02-01" } },
        as("alice"),
      ),
    ).toMatchObject({ code: 400, reason: "VALIDATION" });
  });

  it("lets operators move trading fees into a coin's margin insurance, once per key, never more than the fees hold", async () => {
    // The margin orders above traded: their fees are in the exchange's USDT fee account.
    const fees = durable.core.ledger.posted({ owner: "@system", kind: "fees", asset: "USDT" });
    expect(fees > 0n).toBe(true);
    const fund = (amount: string, idempotencyKey: string) =>
      client.call(endpoints.adminMarginInsurance, { body: { coin: "USDT", amount, idempotencyKey } }, { admin: TEST_ADMIN_TOKEN });
    expect(await fund("1000000", "ins-0001")).toMatchObject({ code: 400, reason: "MARGIN_FEES_SHORT" });
    expect((await fund("0.01", "ins-0002")).data).toMatchObject({ coin: "USDT", insurance: "0.01" });
    // A retry moves nothing again.
    expect((await fund("0.01", "ins-0002")).data).toMatchObject({ insurance: "0.01" });
    expect(durable.core.ledger.posted({ owner: "@system", kind: "fees", asset: "USDT" })).toBe(fees - 1_000_000n);
    expect(await fund("0.01", "ins-0003").then((a) => a.code)).toBe(200);
    expect((await client.data(endpoints.opsMarginPools, {}, { admin: TEST_ADMIN_TOKEN })).find((p) => p.coin === "USDT")?.insurance).toBe("0.02");
    expect(
      (await client.call(endpoints.adminMarginInsurance, { body: { coin: "DOGE", amount: "1", idempotencyKey: "ins-0004" } }, { admin: TEST_ADMIN_TOKEN }))
        .code,
    ).toBe(404);
    expect((await client.call(endpoints.adminMarginInsurance, { body: { coin: "USDT", amount: "1", idempotencyKey: "ins-0005" } }, as("alice"))).code).toBe(
      403,
    );
  });

  it("lets operators read the pools and change a rate, refused past 1 % an hour", async () => {
    const pools = await client.data(endpoints.opsMarginPools, {}, { admin: TEST_ADMIN_TOKEN });
    expect(pools.find((p) => p.coin === "USDT")).toMatchObject({ limit: "5000000", lent: "4000" });
    expect(pools.find((p) => p.coin === "BTC")?.lent).toBe("0.01000006");
    const changed = await client.data(endpoints.adminMarginPool, { body: { coin: "BTC", hourlyRate: "0.000005" } }, { admin: TEST_ADMIN_TOKEN });
    expect(changed).toMatchObject({ coin: "BTC", hourlyRate: "0.000005", yearlyRate: "0.0438" });
    expect((await client.call(endpoints.adminMarginPool, { body: { coin: "BTC", hourlyRate: "0.5" } }, { admin: TEST_ADMIN_TOKEN })).reason).toBe(
      "MARGIN_BAD_RULES",
    );
    expect((await client.call(endpoints.adminMarginPool, { body: { coin: "BTC", hourlyRate: "0.5" } }, as("alice"))).code).toBe(403);
  });

  it("lets operators put a market on margin and lower a pair's leverage; members' isolated leverage follows", async () => {
    const pair = (symbolName: string, maxLeverage: unknown) =>
      client.call(endpoints.adminMarginPair, { body: { symbolName, maxLeverage } as never }, { admin: TEST_ADMIN_TOKEN });
    expect((await client.data(endpoints.marginPairs, {})).pairs.map((p) => p.symbolName)).not.toContain("DOGE/USDT");
    const added = await pair("DOGE_USDT", 4);
    expect(added.code).toBe(200);
    expect(added.data).toContainEqual({ symbolName: "DOGE/USDT", base: "DOGE", quote: "USDT", maxLeverage: 4 });
    expect((await client.data(endpoints.marginPairs, {})).pairs).toContainEqual({ symbolName: "DOGE/USDT", base: "DOGE", quote: "USDT", maxLeverage: 4 });
    expect(await durable.db.selectFrom("margin_pair").select(["base", "max_leverage"]).where("symbol", "=", "DOGE/USDT").executeTakeFirst()).toEqual({
      base: "DOGE",
      max_leverage: 4,
    });
    // A member's 10x on BTC reads as 6x once the operator lowers BTC's highest to 6.
    expect(durable.core.apply({ type: "margin.leverage", memberId: "7101", symbol: "BTC/USDT", leverage: 10 }).code).toBe("OK");
    expect((await pair("BTC/USDT", 6)).code).toBe(200);
    expect(durable.core.margin.leverageOf("7101", "BTC/USDT")).toBe(6);
    // Refused: no such market, a leverage outside 2 to 10 or not whole, a member; nothing changed.
    expect(await pair("NOPE/USDT", 5)).toMatchObject({ code: 404, reason: "MARGIN_UNKNOWN_PAIR" });
    for (const bad of [1, 11, 2.5, "ten"]) expect((await pair("DOGE/USDT", bad)).code).toBe(400);
    expect((await client.call(endpoints.adminMarginPair, { body: { symbolName: "DOGE/USDT", maxLeverage: 10 } }, as("alice"))).code).toBe(403);
    expect(durable.core.margin.pairs.get("DOGE/USDT")?.maxLeverage).toBe(4);
    await pair("BTC/USDT", 10);
  });
});
