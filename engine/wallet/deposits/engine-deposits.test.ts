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
    } finally {
      await engine.close();
    }
  });
});
