import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { DAY_MS } from "../core/earn/staking";
import { seedStaking } from "../earn/stake-config";
import { stakeProduct } from "../earn/stake-product";
import { StakeService } from "../earn/stake-service";
import { DurableCore } from "../journal/durable-core";
import { seedDemoMarkets } from "../sim/demo-markets";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

/** Staking over the API (issue 32, decision 052): products, a member's stakes, redemptions with their preview, outstanding repayments and records; operators' products. */
describe.each(testStoreKinds())("staking API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let durable: DurableCore;
  let service: StakeService;
  let client: ApiClient;
  let clock = Date.UTC(2026, 10, 2, 12, 0, 0);
  const members: Record<string, { token: string; uid: string }> = {};
  const as = (name: string, lang?: string): Caller => ({ token: members[name]!.token, ...(lang ? { lang } : {}) });

  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedDemoMarkets(store.db);
    await seedStaking(store.db);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, stakeProduct],
      now: () => clock,
      onFatal: (e) => {
        throw e;
      },
    });
    service = new StakeService(durable);
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot: new SpotService(durable),
      staking: service,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob"]) {
      const { uid, token } = await registerAndLogIn(app, `${name}-stake-${kind}@example.com`, `device-${name}`);
      members[name] = { token, uid };
      await client.data(
        endpoints.adminDeposit,
        { body: { uid, coin: "USDT", account: "funding", amount: "10000", reference: `s-${name}` } },
        { admin: TEST_ADMIN_TOKEN },
      );
    }
  });
  afterAll(async () => {
    await durable?.drain();
    await app?.close();
    await store?.dispose();
  });

  it("lists the products and each coin's best rate to anyone; never above 18 %", async () => {
    const products = await client.data(endpoints.stakeProducts, { query: {} }, {});
    expect(products).toHaveLength(16);
    expect(products.find((p) => p.productId === "USDT-90")).toMatchObject({
      coin: "USDT",
      termDays: 90,
      yearlyRate: "0.18",
      cap: "50000000",
      available: "50000000",
    });
    expect(products.every((p) => Number(p.yearlyRate) <= 0.18)).toBe(true);
    expect((await client.data(endpoints.stakeProducts, { query: { coin: "BTC" } }, {})).map((p) => p.productId)).toEqual([
      "BTC-0",
      "BTC-7",
      "BTC-30",
      "BTC-90",
    ]);
    expect(await client.data(endpoints.stakeCoins, {}, {})).toContainEqual({ coin: "USDT", bestYearlyRate: "0.18", terms: [0, 7, 30, 90] });
    expect(await client.data(endpoints.stakeProduct, { params: { productId: "ETH-30" } }, {})).toMatchObject({ yearlyRate: "0.05" });
    expect((await client.call(endpoints.stakeProduct, { params: { productId: "NOPE-1" } }, {})).code).toBe(404);
  });

  it("stakes once per key, accrues by the day, previews and pays a redemption; refuses what the product does not allow", async () => {
    const invest = (amount: string, key: string, productId = "USDT-0", who = "alice", lang?: string) =>
      client.call(endpoints.stakeInvest, { body: { productId, amount, idempotencyKey: key } }, as(who, lang));
    const first = await invest("1000", "stake-key-0001");
    expect(first.data).toMatchObject({ productId: "USDT-0", principal: "1000", interest: "0", status: "running", rate: "0.05" });
    // A retry with the key stakes nothing more.
    expect((await invest("1000", "stake-key-0001")).data?.stakeId).toBe(first.data!.stakeId);
    expect((await invest("999", "stake-key-0001")).code).toBe(409);
    expect((await client.data(endpoints.memberStakes, { params: { status: "running", pageNo: "1", pageSize: "10" }, query: {} }, as("alice"))).total).toBe(1);
    // Refused with the figures, nothing changed.
    expect(await invest("5", "stake-key-0002")).toMatchObject({ code: 400, reason: "STAKE_BELOW_MINIMUM", msg: "The smallest stake is 10 USDT." });
    expect((await invest("5", "stake-key-0002", "USDT-0", "alice", "de")).msg).toBe("Der kleinste Stake beträgt 10 USDT.");
    expect(await invest("20000", "stake-key-0003")).toMatchObject({ code: 400, reason: "STAKE_INSUFFICIENT" });
    expect(await invest("10.000000001", "stake-key-0004")).toMatchObject({ code: 400 });
    expect((await invest("100", "stake-key-0005", "NOPE-0")).code).toBe(404);

    // A day and a half: the day's interest credited at midnight, the rest shown as it runs.
    clock += DAY_MS / 2 + 1_000;
    expect(await service.tick()).toBe("OK");
    clock += DAY_MS;
    const id = first.data!.stakeId;
    const running = (await client.data(endpoints.memberStakes, { params: { status: "running", pageNo: "1", pageSize: "10" }, query: {} }, as("alice")))
      .records[0]!;
    expect(Number(running.interest)).toBeCloseTo((1000 * 0.05 * (1.5 + 1 / 86_400)) / 365, 7);
    // Bob cannot see or redeem it.
    expect((await client.call(endpoints.stakePreview, { params: { stakeId: id }, query: {} }, as("bob"))).code).toBe(404);
    expect((await client.call(endpoints.stakeApply, { body: { stakeId: id, idempotencyKey: "stake-key-0006" } }, as("bob"))).code).toBe(404);
    const preview = await client.data(endpoints.stakePreview, { params: { stakeId: id }, query: { amount: "400" } }, as("alice"));
    expect(preview).toMatchObject({ principal: "400", early: false, closes: false, forfeited: "0" });
    expect((await client.call(endpoints.stakePreview, { params: { stakeId: id }, query: { amount: "1000.5" } }, as("alice"))).reason).toBe(
      "STAKE_REDEEM_EXCEEDS",
    );
    const paid = await client.data(endpoints.stakeApply, { body: { stakeId: id, amount: "400", idempotencyKey: "stake-key-0007" } }, as("alice"));
    expect(paid).toMatchObject({ principal: "400", interest: preview.interest, closes: false });
    // Retried: done once.
    await client.data(endpoints.stakeApply, { body: { stakeId: id, amount: "400", idempotencyKey: "stake-key-0007" } }, as("alice"));
    expect(durable.core.staking.stake(id)?.principal).toBe(600_00000000n);

    // A fixed stake redeemed early forfeits its interest, said before.
    const fixed = await invest("500", "stake-key-0008", "USDT-30");
    clock += 2 * DAY_MS;
    await service.tick();
    const early = await client.data(endpoints.stakePreview, { params: { stakeId: fixed.data!.stakeId }, query: {} }, as("alice"));
    expect(early).toMatchObject({ early: true, interest: "0", payout: "500", closes: true });
    expect(Number(early.forfeited)).toBeGreaterThan(0);
    expect((await client.call(endpoints.stakePreview, { params: { stakeId: fixed.data!.stakeId }, query: { amount: "100" } }, as("alice"))).reason).toBe(
      "STAKE_FIXED_WHOLE",
    );
    const outstanding = await client.data(endpoints.stakeOutstanding, {}, as("alice"));
    expect(outstanding.coins).toEqual([expect.objectContaining({ coin: "USDT", principal: "1100", stakes: 2 })]);
    expect(outstanding.maturing.map((s) => s.stakeId)).toEqual([fixed.data!.stakeId]);
    await client.data(endpoints.stakeApply, { body: { stakeId: fixed.data!.stakeId, idempotencyKey: "stake-key-0009" } }, as("alice"));

    const ended = await client.data(endpoints.memberStakes, { params: { status: "ended", pageNo: "1", pageSize: "10" }, query: {} }, as("alice"));
    expect(ended.records).toEqual([expect.objectContaining({ stakeId: fixed.data!.stakeId, status: "early", principal: "500", interest: "0" })]);
    expect(Number(ended.records[0]!.forfeited)).toBeGreaterThan(0);
    const records = await client.data(endpoints.stakeRecords, { params: { pageNo: "1", pageSize: "10" }, query: {} }, as("alice"));
    expect(records.records.map((r) => r.kind)).toEqual(["early", "invest", "redeemed", "invest"]);
    expect((await client.data(endpoints.stakeRecords, { params: { pageNo: "1", pageSize: "10" }, query: {} }, as("bob"))).total).toBe(0);
  });

  it("lets operators read and change products, refusing a rate above 18 %", async () => {
    const rules = { productId: "USDT-7", coin: "USDT", termDays: 7, yearlyRate: "0.1", cap: "1000000", minAmount: "20", maxPerMember: "5000", enabled: true };
    const changed = await client.data(endpoints.adminStakeProduct, { body: rules }, { admin: TEST_ADMIN_TOKEN });
    expect(changed).toMatchObject({ yearlyRate: "0.1", minAmount: "20" });
    expect((await client.call(endpoints.adminStakeProduct, { body: { ...rules, yearlyRate: "0.19" } }, { admin: TEST_ADMIN_TOKEN })).reason).toBe(
      "STAKE_BAD_RULES",
    );
    expect((await client.call(endpoints.adminStakeProduct, { body: { ...rules, termDays: 14 } }, { admin: TEST_ADMIN_TOKEN })).code).toBe(400);
    expect((await client.call(endpoints.adminStakeProduct, { body: rules }, as("alice"))).code).toBe(403);
    const all = await client.data(endpoints.opsStakeProducts, {}, { admin: TEST_ADMIN_TOKEN });
    expect(all.find((p) => p.productId === "USDT-0")).toMatchObject({ runningStakes: 1, staked: "600" });
    expect(await durable.db.selectFrom("stake_product").select("yearly_rate").where("id", "=", "USDT-7").executeTakeFirst()).toEqual({
      yearly_rate: expect.stringMatching(/^0\.10*$/),
    });
  });
});
