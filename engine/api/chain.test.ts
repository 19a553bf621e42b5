import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { SimulatedChains } from "../chain/simulated-chain";
import { ApiClient } from "../testing/api-client";
import { OPERATOR, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

/** The operator's chain calls: an outside sender's payment and the chains' tips (decision 025). */
describe("chain operator endpoints", () => {
  let store: TestStore;
  let chains: SimulatedChains;
  let app: FastifyInstance;
  let client: ApiClient;
  const address = "0x52908400098527886E0F7030069857D2E4169EE7";

  beforeAll(async () => {
    store = await openTestStore("pglite");
    chains = await SimulatedChains.start({ db: store.db, autoMine: false, reorgProbability: 0, seed: 3 });
    const services = createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN });
    app = await buildApp({ store, apiHead: "mjkj-web", services, chains: { gateway: chains, outside: chains } });
    await app.ready();
    client = new ApiClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await chains?.close();
    await store?.dispose();
  });

  it("pays into an address and answers the transaction, which the chain then carries", async () => {
    const sent = await client.data(endpoints.adminChainSend, { body: { address, coin: "ETH", amount: "0.000000000000000001" } }, OPERATOR);
    expect(sent).toMatchObject({ network: "ERC20", chain: "ethereum", toAddress: address, coin: "ETH", amount: "0.000000000000000001", tag: null });
    expect(sent.txid).toMatch(/^0x[0-9a-f]{64}$/);
    const [block] = await chains.mine("ethereum");
    const [carried] = await chains.node("ethereum").blocksFrom(block!.height);
    expect(carried!.transfers.map((t) => [t.txid, t.amount])).toEqual([[sent.txid, "0.000000000000000001"]]);

    const usdt = await client.data(
      endpoints.adminChainSend,
      { body: { address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", coin: "USDT", amount: "5", network: "TRC20" } },
      OPERATOR,
    );
    expect(usdt).toMatchObject({ network: "TRC20", chain: "tron", coin: "USDT" });
    const xrp = await client.data(
      endpoints.adminChainSend,
      { body: { address: "rLHzPsX6oXkzU2qL12kHCH8G8cnZv1rBJh", coin: "XRP", amount: "1", tag: "77" } },
      OPERATOR,
    );
    expect(xrp).toMatchObject({ network: "XRP", tag: "77" });
  });

  it("refuses a bad amount, coin or network with a 400, never a 5xx", async () => {
    for (const chain of chains.chains) await chains.mine(chain); // empties the mempools
    const refused: Array<Record<string, unknown>> = [
      { address, coin: "ETH", amount: "abc" },
      { address, coin: "ETH", amount: "0" },
      { address, coin: "ETH", amount: "-1" },
      { address, coin: "ETH", amount: 1 },
      { address, coin: "ETH", amount: "1e-18" },
      { address, coin: "ETH", amount: "0.0000000000000000001" }, // 19 decimals
      { address, coin: "BTC", amount: "0.000000001" }, // finer than a satoshi
      { address, coin: "USDT", amount: "1.0000001", network: "ERC20" }, // USDT has 6 decimals
      { address, coin: "USDT", amount: "1" }, // several networks: name one
      { address, coin: "USDT", amount: "1", network: "BTC" },
      { address, coin: "FOO", amount: "1" },
      { address, coin: "eth!", amount: "1" },
      { address, coin: "ETH", amount: "1", network: "LTC" },
      { address, coin: "ETH", amount: "1", tag: "12" }, // no tags on ethereum
      { address: "rLHzPsX6oXkzU2qL12kHCH8G8cnZv1rBJh", coin: "XRP", amount: "1", tag: "99999999999" },
      { address: "short", coin: "ETH", amount: "1" },
      { coin: "ETH", amount: "1" },
    ];
    for (const body of refused) {
      const answer = await client.callUnchecked(endpoints.adminChainSend, { body }, OPERATOR);
      expect({ body, status: answer.status }).toEqual({ body, status: 400 });
    }
    // Nothing was paid: the next block of every chain is empty.
    for (const chain of chains.chains) {
      const [block] = await chains.mine(chain);
      expect((await chains.node(chain).blocksFrom(block!.height))[0]!.transfers).toEqual([]);
    }
  });

  it("refuses callers without the admin token with 403", async () => {
    const body = { address, coin: "ETH", amount: "1" };
    expect((await client.call(endpoints.adminChainSend, { body })).status).toBe(403);
    expect((await client.call(endpoints.adminChainSend, { body }, { admin: "x".repeat(TEST_ADMIN_TOKEN.length) })).status).toBe(403);
    expect((await client.call(endpoints.adminChainStatus)).status).toBe(403);
  });

  it("answers each chain's tip", async () => {
    await chains.mine("bitcoin", 2);
    const status = await client.data(endpoints.adminChainStatus, {}, OPERATOR);
    expect(status.map((s) => s.chain)).toEqual(["bitcoin", "ethereum", "tron", "dogecoin", "xrp", "solana"]);
    const bitcoin = status.find((s) => s.chain === "bitcoin")!;
    const tip = await chains.node("bitcoin").tip();
    expect(bitcoin).toEqual({ chain: "bitcoin", networks: ["BTC"], height: tip.height, hash: tip.hash, time: tip.time });
    expect(status.find((s) => s.chain === "ethereum")!.networks).toEqual(["ERC20"]);
  });
});
