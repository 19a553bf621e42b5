import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { readEngineEnv } from "../config";
import { startEngine } from "../start-engine";
import { ApiClient } from "../testing/api-client";

/** The engine starts the configured chains, mines on their timers, stops them, and continues them after a restart (decision 025). */
describe("the chains inside the engine", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-chains-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("mines while the engine runs, stops with it, and continues from the stored tips", async () => {
    const warn = vi.spyOn(console, "warn");
    const env = readEngineEnv({
      DATA_DIR: dataDir,
      ENGINE_PORT: "0",
      LOG_LEVEL: "silent",
      SIMULATOR: "0",
      DEMO_MEMBER: "0",
      CHAIN_BLOCK_MS: "bitcoin=100,ethereum=100,tron=100,dogecoin=100,xrp=100,solana=100",
      CHAIN_REORG_PROBABILITY: "0",
    } as unknown as NodeJS.ProcessEnv);
    const heights = async (client: ApiClient, operator: { admin: string }) =>
      Object.fromEntries((await client.data(endpoints.adminChainStatus, {}, operator)).map((c) => [c.chain, c.height]));

    const first = await startEngine(env);
    const operator = { admin: readFileSync(path.join(dataDir, "admin-token"), "utf8").trim() };
    const client = new ApiClient(first.url);
    const start = await heights(client, operator);
    const sent = await client.data(
      endpoints.adminChainSend,
      { body: { address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", coin: "BTC", amount: "0.00000001" } },
      operator,
    );
    expect(sent).toMatchObject({ network: "BTC", chain: "bitcoin", amount: "0.00000001" });
    await vi.waitFor(async () => expect((await heights(client, operator)).bitcoin).toBeGreaterThan(start.bitcoin! + 2), { timeout: 10_000, interval: 100 });
    const last = await heights(client, operator);
    await first.close();

    const second = await startEngine(env);
    try {
      const again = await heights(new ApiClient(second.url), operator);
      // Not a fresh chain: each continues from its stored tip.
      for (const chain of Object.keys(start)) expect(again[chain]).toBeGreaterThanOrEqual(last[chain]!);
    } finally {
      await second.close();
    }
    // No block was mined against a closed store.
    expect(warn.mock.calls.filter(([message]) => String(message).startsWith("[chain]"))).toEqual([]);
    warn.mockRestore();
  });
});
