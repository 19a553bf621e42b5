import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { DurableCore } from "../journal/durable-core";
import { seedPledge } from "../loans/pledge-config";
import { pledgeProduct } from "../loans/pledge-product";
import { PledgeService } from "../loans/pledge-service";
import { seedDemoMarkets } from "../sim/demo-markets";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

/** Crypto loans over the API (issue 31, decision 051): products, the calculator, a member's loans, repayments, collateral and records; operators' products. */
describe.each(testStoreKinds())("crypto loans API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let durable: DurableCore;
  let client: ApiClient;
  const members: Record<string, { token: string; uid: string }> = {};
  const as = (name: string, lang?: string): Caller => ({ token: members[name]!.token, ...(lang ? { lang } : {}) });

  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedDemoMarkets(store.db);
    await seedPledge(store.db);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, pledgeProduct],
      onFatal: (e) => {
        throw e;
      },
    });
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot: new SpotService(durable),
      pledge: new PledgeService(durable),
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    await durable.funds.deposit("7001", "BTC", "spot", "1", "mm-btc");
    await durable.funds.deposit("7002", "USDT", "spot", "100000", "mm-usdt");
    for (const side of ["sell", "buy"] as const)
      await durable.execute({
        type: "spot.place",
        memberId: side === "sell" ? "7001" : "7002",
        orderId: `t1-${side}`,
        symbol: "BTC/USDT",
        side,
        orderType: "limit",
        tif: side === "sell" ? "GTC" : "IOC",
        price: "50000",
        quantity: "0.001",
      });
    for (const name of ["alice", "bob"]) {
      const { uid, token } = await registerAndLogIn(app, `${name}-pledge-${kind}@example.com`, `device-${name}`);
      members[name] = { token, uid };
      await client.data(
        endpoints.adminDeposit,
        { body: { uid, coin: "BTC", account: "funding", amount: "1", reference: `p-${name}` } },
        { admin: TEST_ADMIN_TOKEN },
      );
    }
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  it("lists the products and answers the calculator to anyone", async () => {
    const products = await client.data(endpoints.pledgeProducts, {}, {});
    expect(products).toHaveLength(15);
    expect(products.find((p) => p.productId === "USDT-BTC-30")).toMatchObject({
      loanCoin: "USDT",
      collateralCoin: "BTC",
      termDays: 30,
      hourlyRate: "0.0000085",
      yearlyRate: "0.07446",
      initialLtv: "0.65",
      liquidationLtv: "0.9",
      price: "50000",
    });
    expect(await client.data(endpoints.pledgeQuote, { query: { productId: "USDT-BTC-30", collateral: "1", amount: "20000" } }, {})).toEqual({
      productId: "USDT-BTC-30",
      maxAmount: "32500",
      minCollateral: "0.61538462",
      ltv: "0.4",
      firstHourInterest: "0.17",
      dailyInterest: "4.08",
      termInterest: "122.4",
      liquidationPrice: "22222.23",
    });
    expect(await client.callUnchecked(endpoints.pledgeQuote, { query: { productId: "NOPE" } }, {})).toMatchObject({
      code: 404,
      reason: "PLEDGE_UNKNOWN_PRODUCT",
    });
    expect(await client.callUnchecked(endpoints.pledgeQuote, { query: { productId: "USDT-BTC-30", amount: "-1" } }, {})).toMatchObject({
      code: 400,
      reason: "VALIDATION",
    });
  });

  it("lends against collateral once per key, refuses what would pass the initial LTV with the most that would not, and keeps members apart", async () => {
    const body = { productId: "USDT-BTC-7", amount: "30000", collateral: "1", idempotencyKey: "alice-loan-01" };
    const tooMuch = await client.call(endpoints.pledgeBorrow, { body: { ...body, amount: "33000", idempotencyKey: "alice-loan-00" } }, as("alice", "de"));
    expect(tooMuch).toMatchObject({
      code: 400,
      reason: "PLEDGE_LTV_TOO_HIGH",
      msg: "Das liegt über dem Anfangs-LTV von 65 %: Mit dieser Sicherheit kannst du höchstens 32500 USDT leihen.",
    });
    const loan = await client.data(endpoints.pledgeBorrow, { body }, as("alice"));
    expect(loan).toMatchObject({ status: "open", principal: "30000", interest: "0.285", collateral: "1", ltv: "0.6001", overdue: false, warned: false });
    expect(loan.dueAt).not.toBeNull();
    // The retry answers the same loan; nothing borrowed twice.
    expect((await client.data(endpoints.pledgeBorrow, { body }, as("alice"))).loanId).toBe(loan.loanId);
    expect((await client.data(endpoints.pledgeLoans, { params: { status: "open", pageNo: "1", pageSize: "10" } }, as("alice"))).total).toBe(1);
    expect(await client.call(endpoints.pledgeBorrow, { body: { ...body, amount: "50", idempotencyKey: "alice-loan-02" } }, as("alice"))).toMatchObject({
      reason: "PLEDGE_BELOW_MINIMUM",
      msg: "The smallest loan is 100 USDT.",
    });
    expect(
      await client.call(endpoints.pledgeBorrow, { body: { ...body, amount: "100", collateral: "0.01", idempotencyKey: "alice-loan-03" } }, as("alice")),
    ).toMatchObject({
      reason: "PLEDGE_INSUFFICIENT",
      msg: "Not enough BTC available in your funding account.",
    });
    expect(
      await client.callUnchecked(endpoints.pledgeBorrow, { body: { ...body, amount: "1.000000001", idempotencyKey: "alice-loan-04" } }, as("alice")),
    ).toMatchObject({
      code: 400,
    });

    // Bob sees none of it and can neither repay nor touch it.
    expect((await client.data(endpoints.pledgeLoans, { params: { status: "open", pageNo: "1", pageSize: "10" } }, as("bob"))).total).toBe(0);
    expect(await client.call(endpoints.pledgeLoan, { params: { loanId: loan.loanId } }, as("bob"))).toMatchObject({ code: 404 });
    expect(await client.call(endpoints.pledgeRepay, { body: { loanId: loan.loanId, amount: "1", idempotencyKey: "bob-repay-01" } }, as("bob"))).toMatchObject({
      code: 404,
      reason: "PLEDGE_UNKNOWN_LOAN",
    });
    expect(durable.core.pledges.loan(loan.loanId)?.principal).toBe(30_000_00000000n);
    expect((await client.call(endpoints.pledgeLoans, { params: { status: "open", pageNo: "1", pageSize: "10" } }, {})).code).toBe(401);
  });

  it("adds and takes back collateral within the initial LTV, repays interest first, and closes the loan with the last payment", async () => {
    const open = await client.data(endpoints.pledgeLoans, { params: { status: "open", pageNo: "1", pageSize: "10" } }, as("alice"));
    const loanId = open.records[0]!.loanId;
    const change = (amount: string, direction: "add" | "remove", key: string) =>
      client.call(endpoints.pledgeCollateral, { body: { loanId, amount, direction, idempotencyKey: key } }, as("alice"));
    expect(await change("0.1", "remove", "alice-col-01")).toMatchObject({
      reason: "PLEDGE_LTV_TOO_HIGH",
      msg: "That would take the loan above its initial LTV of 65 %: you can take back at most 0.0769143 BTC now.",
    });
    expect(await change("0.07", "remove", "alice-col-02")).toMatchObject({ success: true });
    expect(await change("0.5", "add", "alice-col-03")).toMatchObject({ reason: "PLEDGE_INSUFFICIENT" });
    const repaid = await client.data(endpoints.pledgeRepay, { body: { loanId, amount: "1000", idempotencyKey: "alice-repay-01" } }, as("alice"));
    expect(repaid).toMatchObject({ principal: "29000.285", interest: "0", collateral: "0.93" });
    expect(await client.call(endpoints.pledgeRepay, { body: { loanId, amount: "30000", idempotencyKey: "alice-repay-02" } }, as("alice"))).toMatchObject({
      reason: "PLEDGE_REPAY_EXCEEDS",
      msg: "You owe 29000.285 USDT: repay at most that.",
    });
    // She has 29 000 of the loan left in funding: a deposit covers the rest.
    await client.data(
      endpoints.adminDeposit,
      { body: { uid: members.alice!.uid, coin: "USDT", account: "funding", amount: "1", reference: "p-alice-usdt" } },
      { admin: TEST_ADMIN_TOKEN },
    );
    const closed = await client.data(endpoints.pledgeRepay, { body: { loanId, amount: "29000.285", idempotencyKey: "alice-repay-03" } }, as("alice"));
    expect(closed).toMatchObject({ status: "repaid", owed: "0" });
    expect((await client.data(endpoints.pledgeLoans, { params: { status: "closed", pageNo: "1", pageSize: "10" } }, as("alice"))).records).toMatchObject([
      { loanId, status: "repaid" },
    ]);
    const records = await client.data(endpoints.pledgeRecords, { params: { pageNo: "1", pageSize: "20" }, query: { loanId } }, as("alice"));
    expect(records.records.map((r) => [r.kind, r.coin, r.amount])).toEqual([
      ["repay", "USDT", "29000.285"],
      ["repay", "USDT", "1000"],
      ["remove", "BTC", "0.07"],
      ["interest", "USDT", "0.285"],
      ["add", "BTC", "1"],
      ["borrow", "USDT", "30000"],
    ]);
    expect(records.records[1]).toMatchObject({ interest: "0.285", principal: "999.715" });
  });

  it("lets operators list the products and change one, refusing rules that cannot be", async () => {
    const list = await client.data(endpoints.opsPledgeProducts, {}, { admin: TEST_ADMIN_TOKEN });
    expect(list.find((p) => p.productId === "USDT-ETH-90")).toMatchObject({ openLoans: 0, lent: "0" });
    const rules = {
      productId: "USDT-ETH-90",
      loanCoin: "USDT",
      collateralCoin: "ETH",
      termDays: 90,
      hourlyRate: "0.00001",
      overdueRate: "0.00003",
      initialLtv: "0.6",
      callLtv: "0.75",
      liquidationLtv: "0.85",
      minAmount: "50",
      maxAmount: "200000",
      enabled: true,
    };
    expect(await client.data(endpoints.adminPledgeProduct, { body: rules }, { admin: TEST_ADMIN_TOKEN })).toMatchObject({ initialLtv: "0.6", minAmount: "50" });
    expect(await client.call(endpoints.adminPledgeProduct, { body: { ...rules, callLtv: "0.5" } }, { admin: TEST_ADMIN_TOKEN })).toMatchObject({
      code: 400,
      reason: "PLEDGE_BAD_RULES",
    });
    expect(await client.call(endpoints.adminPledgeProduct, { body: { ...rules, termDays: 60 } }, { admin: TEST_ADMIN_TOKEN })).toMatchObject({ code: 400 });
    expect((await client.call(endpoints.adminPledgeProduct, { body: rules }, as("alice"))).code).toBe(403);
  });

  it.each(Object.entries(endpoints).filter(([name]) => name.toLowerCase().includes("pledge")))(
    "%s never answers 5xx to malformed input",
    async (_name, endpoint) => {
      for (const body of [{}, { productId: "'; drop", amount: "x", collateral: "1e9" }, { loanId: "../..", amount: "-0", direction: "up" }]) {
        const answer = await client.send(
          endpoint,
          { body, params: { status: "x", pageNo: "0", pageSize: "1000", loanId: "%%" }, query: { productId: "<b>" } },
          as("alice"),
        );
        expect(answer.statusCode).toBeLessThan(500);
      }
    },
  );
});
