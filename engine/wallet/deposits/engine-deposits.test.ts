import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { endpoints } from "../../../protocol/endpoints";
import { readEngineEnv } from "../../config";
import { startEngine } from "../../start-engine";
import { ApiClient } from "../../testing/api-client";
import { registerAndLogIn } from "../../testing/api-members";

/** Inside the engine the watcher runs on its timer: a payment to a member's address is credited once confirmed (decision 027). */
describe("deposits inside the engine", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-deposits-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("credits a payment to the member's address after its confirmations, and lists it", async () => {
    const env = readEngineEnv({
      DATA_DIR: dataDir,
      ENGINE_PORT: "0",
      LOG_LEVEL: "silent",
      SIMULATOR: "0",
      DEMO_MEMBER: "0",
      CHAIN_BLOCK_MS: "bitcoin=100,ethereum=1000,tron=1000,dogecoin=1000,xrp=1000,solana=1000",
      CHAIN_REORG_PROBABILITY: "0",
      DEPOSIT_WATCH_MS: "100",
    } as unknown as NodeJS.ProcessEnv);
    const engine = await startEngine(env);
    try {
      const operator = { admin: readFileSync(path.join(dataDir, "admin-token"), "utf8").trim() };
      const client = new ApiClient(engine.url);
      const { token } = await registerAndLogIn(engine.url, "engine-deposits@example.com", "device-engine-deposits", { operator });
      const address = await client.data(endpoints.getDepositAddressWithNotEncrypt, { params: { coin: "BTC" }, query: { network: "BTC" } }, { token });
      await client.data(endpoints.adminChainSend, { body: { address: address.address, coin: "BTC", amount: "0.012" } }, operator);
      await vi.waitFor(
        async () => {
          const log = await client.data(endpoints.myDeposits, { query: {} }, { token });
          expect(log.records).toEqual([expect.objectContaining({ coin: "BTC", amount: "0.012", state: "credited", confirmationsRequired: 2 })]);
        },
        { timeout: 15_000, interval: 100 },
      );
      const balances = await client.data(endpoints.balances, { query: { type: "1" } }, { token });
      expect(balances.find((b) => b.coin === "BTC")).toMatchObject({ available: "0.012" });
      // The member is mailed once, with the network and the transaction (decision 030), once the
      // credit's rows are written (they trail the answer).
      const [deposit] = (await client.data(endpoints.myDeposits, { query: {} }, { token })).records;
      await vi.waitFor(
        async () => {
          const mails = await client.data(endpoints.devMailbox, { query: { destination: "engine-deposits@example.com" } }, operator);
          expect(mails.filter((m) => m.subject.startsWith("Deposit credited"))).toEqual([
            expect.objectContaining({
              subject: "Deposit credited: 0.012 BTC",
              body: expect.stringContaining(`Network: BTC\nTransaction ID: ${deposit!.txid}`),
            }),
          ]);
        },
        { timeout: 5_000, interval: 50 },
      );
      // Operators see it in everyone's list, by member, coin and state; a filter that matches nothing is an empty page.
      const uid = (await client.data(endpoints.memberInfo, {}, { token })).uid;
      const listed = await client.data(endpoints.opsDeposits, { query: { uid, coin: "BTC", state: "credited" } }, operator);
      expect(listed).toEqual({ rows: [expect.objectContaining({ id: deposit!.id, uid, amount: "0.012", state: "credited" })], next: null });
      expect((await client.data(endpoints.opsDeposits, { query: { uid, state: "dropped" } }, operator)).rows).toEqual([]);
      expect((await client.call(endpoints.opsDeposits, { query: { state: "lost" as "dropped" } }, operator)).code).toBe(400);
    } finally {
      await engine.close();
    }
  });

  it("fills the SOL address pool at the start (simulated chains), gives a member one and credits a payment to it", async () => {
    const solDir = mkdtempSync(path.join(os.tmpdir(), "engine-deposits-sol-"));
    const env = readEngineEnv({
      DATA_DIR: solDir,
      ENGINE_PORT: "0",
      LOG_LEVEL: "silent",
      SIMULATOR: "0",
      DEMO_MEMBER: "0",
      CHAIN_BLOCK_MS: "bitcoin=1000,ethereum=1000,tron=1000,dogecoin=1000,xrp=1000,solana=40",
      CHAIN_REORG_PROBABILITY: "0",
      DEPOSIT_WATCH_MS: "100",
    } as unknown as NodeJS.ProcessEnv);
    const engine = await startEngine(env);
    try {
      const operator = { admin: readFileSync(path.join(solDir, "admin-token"), "utf8").trim() };
      const client = new ApiClient(engine.url);
      expect(await client.data(endpoints.adminAddressPoolLevel, { query: {} }, operator)).toEqual([
        { network: "SOL", free: 200, assigned: 0, lowWater: 50, low: false },
      ]);
      const { token } = await registerAndLogIn(engine.url, "engine-deposits-sol@example.com", "device-engine-deposits-sol", { operator });
      const address = await client.data(endpoints.getDepositAddressWithNotEncrypt, { params: { coin: "SOL" }, query: { network: "SOL" } }, { token });
      expect(await client.data(endpoints.adminAddressPoolLevel, { query: { network: "SOL" } }, operator)).toEqual([
        { network: "SOL", free: 199, assigned: 1, lowWater: 50, low: false },
      ]);
      await client.data(endpoints.adminChainSend, { body: { address: address.address, coin: "SOL", amount: "2.25" } }, operator);
      await vi.waitFor(
        async () => {
          const log = await client.data(endpoints.myDeposits, { query: {} }, { token });
          expect(log.records).toEqual([expect.objectContaining({ coin: "SOL", network: "SOL", amount: "2.25", state: "credited", confirmationsRequired: 32 })]);
        },
        { timeout: 15_000, interval: 100 },
      );
      const balances = await client.data(endpoints.balances, { query: { type: "1" } }, { token });
      expect(balances.find((b) => b.coin === "SOL")).toMatchObject({ available: "2.25" });
      // Its notification names the deposit (`chain:solana:<88-character signature>:0`, longer than
      // the column was before migration 033: its projection stopped the engine).
      const [deposit] = (await client.data(endpoints.myDeposits, { query: {} }, { token })).records;
      await vi.waitFor(
        async () => {
          const notices = await client.data(endpoints.noticeList, { query: {} }, { token });
          expect(notices.records).toContainEqual(expect.objectContaining({ type: "deposit_credited", orderCode: deposit!.id }));
        },
        { timeout: 5_000, interval: 50 },
      );
    } finally {
      await engine.close();
      rmSync(solDir, { recursive: true, force: true });
    }
  }, 60_000);
});
