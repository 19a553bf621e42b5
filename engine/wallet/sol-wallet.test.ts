import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { createServices } from "../api/context";
import { buildApp } from "../app";
import { SimulatedChains } from "../chain/simulated-chain";
import { simulatedCustody } from "../chain/simulated-custody";
import { poolAddressProblem } from "../core/wallet/address-pool";
import { DurableCore } from "../journal/durable-core";
import { noticeProduct } from "../notices/notice-product";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { lastMailedCode, registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { simChainWithdrawals } from "../testing/sim-chain-rows";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { AddressPool } from "./address-pool";
import { depositId, DepositWatcher } from "./deposits/deposit-watcher";
import { walletMailProduct } from "./wallet-mails";
import { withdrawalProduct } from "./withdrawal-product";
import { WithdrawalSender } from "./withdrawal-sender";
import { WithdrawalService } from "./withdrawal-service";

/**
 * SOL in and out on the simulated Solana chain (decision 042): a member's address comes from the
 * pool, a payment to it is credited once after the network's 32 confirmations, and a withdrawal to
 * a valid Solana address goes through review, is sent once on the solana chain and completes.
 */
describe.each(testStoreKinds())("SOL deposits and withdrawals on the simulated chain on %s", (kind) => {
  let store: TestStore;
  let chains: SimulatedChains;
  let durable: DurableCore;
  let withdrawals: WithdrawalService;
  let watcher: DepositWatcher;
  let app: FastifyInstance;
  let client: ApiClient;
  let member: { token: string; id: string; email: string };
  let now = Date.parse("2026-11-25T10:00:00Z");
  const admin: Caller = { admin: TEST_ADMIN_TOKEN };
  const as = (): Caller => ({ token: member.token });
  const warnings: string[] = [];
  /** An outside wallet's address (a key pair's, as a member would paste it). */
  const OUTSIDE = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
  const sol = async () => (await client.data(endpoints.balances, { query: { type: "1" } }, as())).find((b) => b.coin === "SOL");

  beforeAll(async () => {
    store = await openTestStore(kind);
    chains = await SimulatedChains.start({ db: store.db, autoMine: false, reorgProbability: 0, seed: 42 });
    durable = await DurableCore.start({
      db: store.db,
      // As in the engine: the deposit's and withdrawal's mails and notifications are projected too.
      products: [spotProduct, withdrawalProduct, walletMailProduct, noticeProduct()],
      onFatal: (e) => {
        throw e;
      },
    });
    withdrawals = new WithdrawalService(durable, { gateway: chains });
    // As the engine starts with the simulated chains: their custody fills the pool.
    const addressPool = new AddressPool(store.db, { custody: simulatedCustody });
    await addressPool.upkeep(now);
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot: new SpotService(durable),
      withdrawals,
      chains: { gateway: chains, outside: chains, custody: simulatedCustody },
      addressPool,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN, now: () => now }),
    });
    await app.ready();
    client = new ApiClient(app);
    const email = `sol-${kind}@example.com`;
    const { uid, token } = await registerAndLogIn(app, email, "device-sol");
    const id = String((await store.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow()).id);
    member = { token, id, email };
    watcher = new DepositWatcher({ durable, gateway: chains, warn: (m) => warnings.push(m) });
    await watcher.pass(); // bookmarks at the tips
  });
  afterAll(async () => {
    await watcher?.stop();
    await chains?.close();
    await app?.close();
    await durable?.drain();
    await store?.dispose();
  });

  it("credits a payment to the member's pooled SOL address once, after its 32 confirmations", async () => {
    const address = await client.data(endpoints.getDepositAddressWithNotEncrypt, { params: { coin: "SOL" }, query: { network: "SOL" } }, as());
    expect(address).toMatchObject({ coin: "SOL", network: "SOL", tag: null, confirmations: 32, minDeposit: "0.01" });
    expect(poolAddressProblem("solana", address.address)).toBeNull();
    const pooled = await store.db.selectFrom("deposit_address_pool").selectAll().where("address", "=", address.address).executeTakeFirstOrThrow();
    expect(String(pooled.member_id)).toBe(member.id);

    // An outside sender pays (the operator's `chain send` on the simulated chains).
    const paid = await client.data(endpoints.adminChainSend, { body: { address: address.address, coin: "SOL", amount: "1.5" } }, admin);
    expect(paid).toMatchObject({ network: "SOL", chain: "solana", amount: "1.5" });
    const id = depositId("solana", paid.txid, paid.index);
    const row = () => store.db.selectFrom("wallet_deposit").selectAll().where("id", "=", id).executeTakeFirst();

    await chains.mine("solana");
    await watcher.pass();
    expect(await row()).toMatchObject({ state: "confirming", confirmations: 1, required: 32, member_id: member.id, coin: "SOL", network: "SOL" });
    await chains.mine("solana", 30);
    await watcher.pass();
    expect(await row()).toMatchObject({ state: "confirming", confirmations: 31 });
    expect(await sol()).toMatchObject({ available: "0" });

    await chains.mine("solana");
    const [report] = (await watcher.pass()).filter((r) => r.chain === "solana");
    expect(report!.credited).toEqual([id]);
    expect(await sol()).toEqual({ coin: "SOL", available: "1.5", frozen: "0" });

    // Read again from an older bookmark, and more passes: still once.
    await chains.mine("solana", 2);
    const height = Number((await row())!.block_height);
    const block = (await chains.node("solana").blockAt(height - 1))!;
    await store.db
      .updateTable("deposit_watch")
      .set({ height: String(block.height), hash: block.hash })
      .where("chain", "=", "solana")
      .execute();
    const [again] = (await watcher.pass()).filter((r) => r.chain === "solana");
    expect(again).toMatchObject({ recorded: 1, credited: [] });
    await watcher.pass();
    expect(await sol()).toEqual({ coin: "SOL", available: "1.5", frozen: "0" });
    await durable.projectedAll();
    expect(await store.db.selectFrom("ledger_transfer").select("id").where("id", "=", id).execute()).toHaveLength(1);
    // Its notification and mail name the deposit (an id of 100 characters and more: migration 033 widened the notice's column).
    expect(id.length).toBeGreaterThan(100);
    expect(await store.db.selectFrom("member_notice").select(["type", "order_code"]).where("member_id", "=", member.id).execute()).toContainEqual({
      type: "deposit_credited",
      order_code: id,
    });
    expect(await store.db.selectFrom("outbox_message").select("dedupe_key").where("dedupe_key", "=", `deposit:${id}`).execute()).toHaveLength(1);
    expect((await client.data(endpoints.myDeposits, { query: {} }, as())).records).toEqual([
      expect.objectContaining({
        coin: "SOL",
        network: "SOL",
        amount: "1.5",
        state: "credited",
        confirmations: 32,
        confirmationsRequired: 32,
        address: address.address,
      }),
    ]);
    expect(warnings).toEqual([]);
  });

  /** A fresh code of a purpose to the member's e-mail (the resend pause passed first). */
  const mailedCode = async (query: Record<string, string>) => {
    now += 61_000;
    expect((await client.call(endpoints.sendEmailCode, { query: { email: member.email, ...query } as never }, as())).code).toBe(200);
    return lastMailedCode(client, member.email, admin);
  };
  const withdraw = (body: Record<string, string>, key: string) =>
    client.callUnchecked(
      endpoints.withdraw,
      { body: { coin: "SOL", network: "SOL", address: OUTSIDE, amount: "0.5", tradePassword: "246810", idempotencyKey: key, ...body } },
      as(),
    );

  it("sends a withdrawal to a valid Solana address through review, once, on the solana chain; refuses a bad address", async () => {
    expect((await client.call(endpoints.tradePassword, { body: { tradePassword: "246810", code: await mailedCode({ type: "security" }) } }, as())).code).toBe(
      200,
    );
    const code = await mailedCode({ type: "withdraw", coin: "SOL", network: "SOL", address: OUTSIDE, amount: "0.5" });
    for (const [body, reason] of [
      [{ address: "1111111111111111111111111111111" }, "ADDRESS_INVALID"], // 31 bytes
      [{ address: OUTSIDE.slice(0, -1) + "0" }, "ADDRESS_INVALID"], // 0 is not base58
      [{ address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL" }, "ADDRESS_INVALID"],
      [{ amount: "0.05" }, "WITHDRAWAL_BELOW_MINIMUM"],
      [{ amount: "0.123456789" }, "AMOUNT_PRECISION"], // SOL is kept to 8 decimals here
      [{ coin: "USDT", amount: "20" }, "WITHDRAWAL_DISABLED"], // USDT on SOL stays off
    ] as const)
      expect(await withdraw({ code, ...body }, `sol-refused-${reason}-${Object.keys(body)[0]}`), JSON.stringify(body)).toMatchObject({ code: 400, reason });
    expect(await sol()).toEqual({ coin: "SOL", available: "1.5", frozen: "0" });

    const placed = await withdraw({ code }, "sol-withdrawal-1");
    expect(placed).toMatchObject({ code: 200, data: { state: "review" } });
    const withdrawalId = (placed.data as { id: string }).id;
    // 0.5 SOL and the network's fee (0.01) are held.
    expect(await sol()).toEqual({ coin: "SOL", available: "0.99", frozen: "0.51" });

    const sender = new WithdrawalSender(store.db, withdrawals, chains);
    expect(await sender.pass()).toEqual({ sent: 0, completed: 0 }); // in review: nothing goes out
    expect((await client.call(endpoints.adminWithdrawalReview, { body: { id: withdrawalId, decision: "approve" } }, admin)).code).toBe(200);
    expect(await sender.pass()).toEqual({ sent: 1, completed: 0 });
    expect(await sender.pass()).toEqual({ sent: 0, completed: 0 });
    const [sent] = await simChainWithdrawals(store.db, withdrawalId);
    expect(sent).toMatchObject({ chain: "solana", to_address: OUTSIDE, asset: "SOL", amount: "0.5" });
    expect(await sol()).toEqual({ coin: "SOL", available: "0.99", frozen: "0" });

    await chains.mine("solana", 31);
    expect((await sender.pass()).completed).toBe(0);
    await chains.mine("solana");
    expect((await sender.pass()).completed).toBe(1);
    const record = (await client.data(endpoints.myWithdrawals, { query: {} }, as())).records.find((w) => w.id === withdrawalId);
    expect(record).toMatchObject({ state: "completed", coin: "SOL", network: "SOL", address: OUTSIDE, amount: "0.5", fee: "0.01", txid: sent!.txid });
    const onChain = (await chains.node("solana").blocksFrom(0, 10_000)).flatMap((b) => b.transfers).filter((t) => t.txid === sent!.txid);
    expect(onChain).toEqual([expect.objectContaining({ toAddress: OUTSIDE, asset: "SOL", amount: "0.5" })]);
    // The exchange's own withdrawal to an outside address is no member's deposit.
    await watcher.pass();
    expect(await store.db.selectFrom("wallet_deposit").select("id").where("txid", "=", sent!.txid).execute()).toEqual([]);
  });
});
