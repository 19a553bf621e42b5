import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import type { Command } from "../core/exchange/commands";
import { externalAccount, feeAccount } from "../core/ledger/ledger";
import { DurableCore } from "../journal/durable-core";
import { openStore } from "../store/db";
import { ApiClient, type CallInput, type Caller } from "../testing/api-client";
import { lastMailedCode, registerAndLogIn } from "../testing/api-members";
import { freePort, killEngine, spawnEngine, type EngineProcess } from "../testing/engine-process";
import { simChainWithdrawals } from "../testing/sim-chain-rows";
import { CORE_STATE_PRODUCTS } from "../core-products";
import { walletMailProduct } from "./wallet-mails";

/**
 * The wallet across kill -9 of the whole engine process (issue 12): a deposit is credited once
 * however often the engine dies while it confirms, and a withdrawal the chain took just before
 * the engine died (its broadcast step never journaled) is sent once: the restarted sender hands
 * it to the chain again, the chain answers the same transaction, and it completes once.
 */
describe("the wallet across kill -9", () => {
  const dataDirs: string[] = [];
  const running: EngineProcess[] = [];
  afterAll(async () => {
    for (const engine of running) await killEngine(engine);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Fast chains without re-orgs (the property test has those), no simulated traders, codes every second. */
  const start = async (dataDir: string, port: number, env: Record<string, string> = {}) => {
    const engine = await spawnEngine({
      dataDir,
      port,
      env: {
        SIMULATOR: "0",
        DEMO_MEMBER: "0",
        CHAIN_BLOCK_MS: "bitcoin=400,tron=150,ethereum=1000,dogecoin=1000,xrp=1000,solana=1000",
        CHAIN_REORG_PROBABILITY: "0",
        DEPOSIT_WATCH_MS: "100",
        CODE_RESEND_SECONDS: "1",
        ...env,
      },
    });
    running.push(engine);
    return engine;
  };
  const newDataDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "engine-wallet-crash-"));
    dataDirs.push(dir);
    return dir;
  };
  /**
   * The data of a stopped engine as the next start restores it: every asset's ledger sums to
   * zero and nothing available is negative; then `check` reads what it needs.
   */
  const afterStop = async (dataDir: string, check: (durable: DurableCore) => Promise<void>) => {
    const store = await openStore({ dataDir });
    try {
      const durable = await DurableCore.start({
        db: store.db,
        products: [...CORE_STATE_PRODUCTS, walletMailProduct],
        onFatal: (error) => {
          throw error;
        },
      });
      expect(durable.core.ledger.checkInvariants()).toEqual([]);
      await check(durable);
      await durable.drain();
    } finally {
      await store.close();
    }
  };

  it("credits each deposit once when the engine is killed during its confirmations and again at a random moment", async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    let engine = await start(dataDir, port);
    const client = new ApiClient(engine.base);
    const operator: Caller = { admin: readFileSync(path.join(dataDir, "admin-token"), "utf8").trim() };
    const { token } = await registerAndLogIn(engine.base, "deposit-crash@example.com", "device-deposit-crash", { operator });
    const addressOf = (coin: string, network: string) =>
      client.data(endpoints.getDepositAddressWithNotEncrypt, { params: { coin }, query: { network } }, { token });
    const btc = (await addressOf("BTC", "BTC")).address;
    const usdt = (await addressOf("USDT", "TRC20")).address;
    const payments = [
      { address: btc, coin: "BTC", amount: "0.011", network: "BTC" as const },
      { address: btc, coin: "BTC", amount: "0.022", network: "BTC" as const },
      { address: usdt, coin: "USDT", amount: "25", network: "TRC20" as const },
      { address: usdt, coin: "USDT", amount: "12.5", network: "TRC20" as const },
    ];
    for (const body of payments) await client.data(endpoints.adminChainSend, { body }, operator);
    const deposits = async () => (await client.data(endpoints.myDeposits, { query: {} }, { token })).records;

    // Killed once every payment is in a block and the TRC20 ones count towards their 20 confirmations.
    await vi.waitFor(
      async () => {
        const seen = await deposits();
        expect(seen).toHaveLength(4);
        for (const d of seen.filter((d) => d.network === "TRC20")) expect(d).toMatchObject({ state: "confirming", confirmations: expect.any(Number) });
      },
      { timeout: 20_000, interval: 50 },
    );
    await killEngine(engine);
    // Started again, and killed again at a random moment while the rest confirm.
    engine = await start(dataDir, port);
    await sleep(Math.random() * 2_000);
    await killEngine(engine);
    engine = await start(dataDir, port);
    await vi.waitFor(
      async () => {
        const seen = await deposits();
        expect(seen.map((d) => d.state)).toEqual(["credited", "credited", "credited", "credited"]);
      },
      { timeout: 30_000, interval: 100 },
    );
    const funding = await client.data(endpoints.balances, { query: { type: "1" } }, { token });
    expect(funding.find((b) => b.coin === "BTC")).toEqual({ coin: "BTC", available: "0.033", frozen: "0" });
    expect(funding.find((b) => b.coin === "USDT")).toEqual({ coin: "USDT", available: "37.5", frozen: "0" });
    const ids = (await deposits()).map((d) => d.id).sort();
    // One mail per deposit (decision 030): the credits' rows, written again after a kill, are written once.
    await vi.waitFor(
      async () => {
        const mails = await client.data(endpoints.devMailbox, { query: { destination: "deposit-crash@example.com" } }, operator);
        expect(
          mails
            .filter((m) => m.subject.startsWith("Deposit credited"))
            .map((m) => m.subject)
            .sort(),
        ).toEqual(["Deposit credited: 0.011 BTC", "Deposit credited: 0.022 BTC", "Deposit credited: 12.5 USDT", "Deposit credited: 25 USDT"]);
      },
      { timeout: 5_000, interval: 50 },
    );
    await killEngine(engine);

    // One credit per deposit in the ledger's rows, with the deposit's own id.
    await afterStop(dataDir, async (durable) => {
      const credits = await durable.db.selectFrom("ledger_transfer").select("id").where("id", "like", "chain:%").orderBy("id").execute();
      expect(credits.map((c) => c.id)).toEqual(ids);
    });
  }, 90_000);

  it("sends a withdrawal once when the engine is killed after the chain took it and before the broadcast step was journaled", async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    let engine = await start(dataDir, port, { FAULT_CRASH_AFTER_BROADCAST: "1" });
    const client = new ApiClient(engine.base);
    const operator: Caller = { admin: readFileSync(path.join(dataDir, "admin-token"), "utf8").trim() };
    const email = "withdraw-crash@example.com";
    const { uid, token } = await registerAndLogIn(engine.base, email, "device-withdraw-crash", { operator });
    await client.data(endpoints.adminDeposit, { body: { uid, coin: "USDT", account: "funding", amount: "1000", reference: "withdraw-crash-fund" } }, operator);
    const sendCode = async (query: NonNullable<CallInput<typeof endpoints.sendEmailCode>["query"]>) => {
      await sleep(1_100); // the resend pause (CODE_RESEND_SECONDS)
      await client.data(endpoints.sendEmailCode, { query }, { token });
      return lastMailedCode(client, email, operator);
    };
    await client.data(endpoints.tradePassword, { body: { tradePassword: "246810", code: await sendCode({ email, type: "security" }) } }, { token });
    const withdrawal = { coin: "USDT", network: "TRC20", address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", amount: "50" };
    const form = {
      ...withdrawal,
      tradePassword: "246810",
      code: await sendCode({ email, type: "withdraw", ...withdrawal }),
      idempotencyKey: "withdraw-crash-1",
    };
    const placed = await client.data(endpoints.withdraw, { body: form }, { token });

    // The operator approves with the CLI; the sender hands it to the chain, and the fault kills the engine right then.
    const cli = await promisify(execFile)(process.execPath, ["--import", "tsx", "engine/admin-cli.ts", "withdrawal", "approve", placed.id], {
      env: { ...process.env, ENGINE_URL: engine.base, DATA_DIR: dataDir },
    });
    expect(cli.stdout).toMatch(/approved/);
    expect(await engine.exited).toBe("SIGKILL");

    // What the kill left: the chain holds one transaction for it; the journal has no broadcast step.
    const left = await openStore({ dataDir });
    const onChain = await simChainWithdrawals(left.db, placed.id);
    const steps = (await left.db.selectFrom("command_journal").select("command").orderBy("seq").execute())
      .map((row) => JSON.parse(row.command) as Command)
      .filter((c) => (c.type === "wallet.withdraw" || c.type === "wallet.withdrawal") && c.id === placed.id)
      .map((c) => (c.type === "wallet.withdrawal" ? c.action : "request"));
    await left.close();
    expect(onChain).toHaveLength(1);
    expect(onChain[0]).toMatchObject({ chain: "tron", asset: "USDT", amount: "50", dropped: false });
    expect(steps).toEqual(["request", "approve"]);

    // Started again without the fault.
    engine = await start(dataDir, port);
    // A retried post with the key gets the first answer (the used code is not asked again), also after the kill.
    expect(await client.data(endpoints.withdraw, { body: form }, { token })).toEqual(placed);
    // Its money has left: an operator can no longer reject it (the chain holds it, or it is recorded as sent by now).
    expect(
      await client.callUnchecked(endpoints.adminWithdrawalReview, { body: { id: placed.id, decision: "reject", reason: "Too late." } }, operator),
    ).toMatchObject({ code: 400, reason: "WITHDRAWAL_WRONG_STATE" });
    // The sender sends it again; the chain answers the same transaction; it completes once confirmed.
    await vi.waitFor(
      async () => {
        const [latest] = (await client.data(endpoints.myWithdrawals, { query: {} }, { token })).records;
        expect(latest).toMatchObject({ id: placed.id, state: "completed", txid: onChain[0]!.txid });
      },
      { timeout: 30_000, interval: 100 },
    );
    const funding = await client.data(endpoints.balances, { query: { type: "1" } }, { token });
    expect(funding.find((b) => b.coin === "USDT")).toEqual({ coin: "USDT", available: "949", frozen: "0" });
    // Told once that it was sent and once that it completed (decision 030).
    await vi.waitFor(
      async () => {
        const mails = await client.data(endpoints.devMailbox, { query: { destination: email } }, operator);
        const subjects = mails.map((m) => m.subject).filter((s) => s.startsWith("Withdrawal"));
        expect(subjects.filter((s) => s.startsWith("Withdrawal sent"))).toHaveLength(1);
        expect(subjects.filter((s) => s.startsWith("Withdrawal completed"))).toHaveLength(1);
      },
      { timeout: 5_000, interval: 50 },
    );
    await killEngine(engine);

    await afterStop(dataDir, async (durable) => {
      expect(await simChainWithdrawals(durable.db, placed.id)).toEqual(onChain);
      // 1,000 came in; 50 left and the fee of 1 was kept, once each.
      const member = await durable.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow();
      expect(durable.funds.balances(String(member.id), "funding").find((b) => b.coin === "USDT")).toEqual({ coin: "USDT", available: "949", frozen: "0" });
      expect(durable.core.ledger.posted(externalAccount("USDT"))).toBe(-950_00000000n);
      expect(durable.core.ledger.posted(feeAccount("USDT"))).toBe(1_00000000n);
    });
  }, 90_000);
});
