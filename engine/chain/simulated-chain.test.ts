import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { ChainRefusal, type BlockRef, type ChainNode } from "./chain-gateway";
import { SimulatedChains, type SimulatedChainOptions } from "./simulated-chain";

const ALICE_ETH = "0x52908400098527886E0F7030069857D2E4169EE7";
const ALICE_BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

describe.each(testStoreKinds())("simulated chains on %s", (kind) => {
  let store: TestStore;
  let chains: SimulatedChains;
  let clock: number;
  const start = (options: Partial<SimulatedChainOptions> = {}) =>
    SimulatedChains.start({ db: store.db, autoMine: false, reorgProbability: 0, now: () => clock, seed: 7, ...options });

  beforeEach(async () => {
    clock = Date.parse("2026-11-24T08:00:00Z");
    store = await openTestStore(kind);
    chains = await start();
  });
  afterEach(async () => {
    await chains.close();
    await store.dispose();
  });

  /** Every block from `from` to the tip names the previous one as its parent. */
  async function expectLinked(node: ChainNode, from: number) {
    const blocks = await node.blocksFrom(from, 1000);
    for (let i = 1; i < blocks.length; i++) {
      expect(blocks[i]!.height).toBe(blocks[i - 1]!.height + 1);
      expect(blocks[i]!.parentHash).toBe(blocks[i - 1]!.hash);
    }
    expect(blocks.at(-1)!.hash).toBe((await node.tip()).hash);
  }

  it("counts confirmations from block heights as blocks are mined, with exact amounts", async () => {
    const node = chains.node("ethereum");
    const before = await node.tip();
    const paid = await chains.pay({ network: "ERC20", toAddress: ALICE_ETH, asset: "ETH", amount: "0.000000000000000001" });
    expect(paid.txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await node.status(paid.txid)).toMatchObject({ state: "pending", confirmations: 0, block: null });

    const [first] = await chains.mine("ethereum");
    expect(first!.height).toBe(before.height + 1);
    expect(first!.parentHash).toBe(before.hash);
    expect(await node.status(paid.txid)).toMatchObject({ state: "confirmed", confirmations: 1, block: { height: first!.height, hash: first!.hash } });
    await chains.mine("ethereum", 2);
    expect((await node.status(paid.txid)).confirmations).toBe(3);

    const [block] = await node.blocksFrom(first!.height, 1);
    expect(block!.transfers).toEqual([
      { txid: paid.txid, index: 0, toAddress: ALICE_ETH, tag: null, asset: "ETH", contract: null, amount: "0.000000000000000001" },
    ]);
    expect(await node.status("0x" + "ab".repeat(32))).toMatchObject({ state: "unknown", confirmations: 0 });
  });

  it("keeps amounts as canonical decimal texts and refuses what the chain cannot carry", async () => {
    const usdt = await chains.pay({ network: "ERC20", toAddress: ALICE_ETH, asset: "USDT", amount: "0012.500000" });
    expect(usdt).toMatchObject({ amount: "12.5", contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7" });
    const big = await chains.pay({ network: "ERC20", toAddress: ALICE_ETH, asset: "ETH", amount: "123456789012345.123456789012345678" });
    expect(big.amount).toBe("123456789012345.123456789012345678");
    await expect(chains.pay({ network: "BTC", toAddress: ALICE_BTC, asset: "BTC", amount: "0.000000001" })).rejects.toThrow(ChainRefusal);
    await expect(chains.pay({ network: "BTC", toAddress: ALICE_BTC, asset: "USDT", amount: "1" })).rejects.toThrow(/not carried/);
    await expect(chains.pay({ network: "BTC", toAddress: ALICE_BTC, asset: "BTC", amount: "0.000" })).rejects.toThrow(/above zero/);
    await expect(chains.pay({ network: "BTC", toAddress: ALICE_BTC, asset: "BTC", amount: "1", tag: "5" })).rejects.toThrow(/no destination tag/);
    const xrp = await chains.pay({ network: "XRP", toAddress: "rLHzPsX6oXkzU2qL12kHCH8G8cnZv1rBJh", asset: "XRP", amount: "25", tag: "104201" });
    expect(xrp).toMatchObject({ tag: "104201", index: 0 });
    expect(xrp.txid).toMatch(/^[0-9A-F]{64}$/);
    const btc = await chains.pay({ network: "BTC", toAddress: ALICE_BTC, asset: "BTC", amount: "0.1" });
    expect(btc.txid).toMatch(/^[0-9a-f]{64}$/);
    expect([0, 1]).toContain(btc.index);
    const sol = await chains.pay({ network: "SOL", toAddress: "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV", asset: "SOL", amount: "0.000000001" });
    expect(sol.txid).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,88}$/);
    const [btcBlock] = await chains.mine("bitcoin");
    expect(btcBlock!.hash).toMatch(/^00000000[0-9a-f]{56}$/);
  });

  it("a re-org replaces the tip: a watcher sees its last block's hash change, and the transaction returns to the mempool", async () => {
    const node = chains.node("bitcoin");
    const paid = await chains.pay({ network: "BTC", toAddress: ALICE_BTC, asset: "BTC", amount: "0.5" });
    const [mined] = await chains.mine("bitcoin");
    // The watcher's bookmark: the last block it read.
    const seen: BlockRef = (await node.tip()) as BlockRef;
    expect(seen.hash).toBe(mined!.hash);

    const reorg = await chains.reorg("bitcoin", 1, () => false);
    expect(reorg.replaced.map((b) => b.hash)).toEqual([seen.hash]);
    expect(reorg.returned).toEqual([paid.txid]);
    const now = await node.blockAt(seen.height);
    expect(now!.hash).not.toBe(seen.hash);
    expect((await node.tip()).height).toBe(seen.height + 1);
    await expectLinked(node, seen.height - 1);
    // Not in the competing miner's blocks: back in the mempool, mined again in the next block.
    expect(await node.status(paid.txid)).toMatchObject({ state: "pending", confirmations: 0 });
    expect((await node.blocksFrom(seen.height)).flatMap((b) => b.transfers)).toEqual([]);
    const [again] = await chains.mine("bitcoin");
    expect(await node.status(paid.txid)).toMatchObject({ state: "confirmed", confirmations: 1, block: { hash: again!.hash } });
  });

  it("a double-spent transaction disappears for good", async () => {
    const node = chains.node("tron");
    const spent = await chains.pay({ network: "TRC20", toAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", asset: "USDT", amount: "100" });
    const kept = await chains.pay({ network: "TRC20", toAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", asset: "TRX", amount: "7" });
    await chains.mine("tron", 2);
    const first = (await node.tip()).height - 1;
    expect((await node.status(spent.txid)).confirmations).toBe(2);

    const reorg = await chains.reorg("tron", 2, (txid) => txid === spent.txid);
    expect(reorg.replaced).toHaveLength(2);
    expect(reorg.dropped).toEqual([spent.txid]);
    await chains.mine("tron", 3);
    expect(await node.status(spent.txid)).toMatchObject({ state: "dropped", confirmations: 0, block: null });
    const transfers = (await node.blocksFrom(first, 100)).flatMap((b) => b.transfers.map((t) => t.txid));
    expect(transfers).toEqual([kept.txid]);
    expect(await node.status(kept.txid)).toMatchObject({ state: "confirmed", confirmations: 3 });
  });

  it("broadcasts a withdrawal once per id, also after a restart on the same database", async () => {
    const node = chains.node("ethereum");
    const order = { withdrawalId: "wd-1001", toAddress: ALICE_ETH, asset: "ETH", amount: "1.25" };
    const first = await node.broadcast(order);
    expect(first.alreadySent).toBe(false);
    expect(await node.broadcast({ ...order, amount: "1.250" })).toEqual({ txid: first.txid, alreadySent: true });
    await chains.mine("ethereum");
    const tipBefore = await node.tip();

    await chains.close();
    chains = await start();
    const restarted = chains.node("ethereum");
    expect(await restarted.tip()).toEqual(tipBefore);
    expect(await restarted.broadcast(order)).toEqual({ txid: first.txid, alreadySent: true });
    await expect(restarted.broadcast({ ...order, amount: "2" })).rejects.toThrow(/other details/);
    // Confirmations continue from the stored heights; one transaction was sent, whatever the calls.
    await chains.mine("ethereum", 2);
    expect(await restarted.status(first.txid)).toMatchObject({ state: "confirmed", confirmations: 3 });
    const sent = (await restarted.blocksFrom(tipBefore.height - 1, 10)).flatMap((b) => b.transfers);
    expect(sent.map((t) => t.txid)).toEqual([first.txid]);
    // A restart draws no txid or hash again (the nonce is stored).
    const next = await restarted.broadcast({ ...order, withdrawalId: "wd-1002" });
    expect(next.txid).not.toBe(first.txid);
    await expectLinked(restarted, tipBefore.height - 1);
  });

  it("a withdrawal is never double-spent by a random re-org; random re-orgs keep the chain linked and replay from the seed", async () => {
    await chains.close();
    chains = await start({ reorgProbability: 0.5, doubleSpendProbability: 1 });
    const node = chains.node("dogecoin");
    const base = (await node.tip()).height;
    const sent = await node.broadcast({ withdrawalId: "wd-doge", toAddress: "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L", asset: "DOGE", amount: "42" });
    const paid = await chains.pay({ network: "DOGE", toAddress: "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L", asset: "DOGE", amount: "1" });
    for (let i = 0; i < 12; i++) await chains.mine("dogecoin");
    await expectLinked(node, base);
    expect((await node.tip()).height).toBeGreaterThan(base + 12); // re-orgs added blocks
    expect((await node.status(sent.txid)).state).not.toBe("dropped");
    expect((await node.status(paid.txid)).state).toBe("dropped"); // the seed re-orgs its block: with certainty double-spent

    // Same seed, same clock, same calls: the same chain on a fresh database (one at a time:
    // Kysely's migrator on Postgres sees another schema's lock table).
    const tip = await node.tip();
    await chains.close();
    await store.dispose();
    store = await openTestStore(kind);
    await (await start()).close(); // started and stopped once, as above (the first start makes each chain's first block)
    chains = await start({ reorgProbability: 0.5, doubleSpendProbability: 1 });
    const twin = chains.node("dogecoin");
    await twin.broadcast({ withdrawalId: "wd-doge", toAddress: "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L", asset: "DOGE", amount: "42" });
    await chains.pay({ network: "DOGE", toAddress: "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L", asset: "DOGE", amount: "1" });
    for (let i = 0; i < 12; i++) await chains.mine("dogecoin");
    expect(await twin.tip()).toEqual(tip);
  });

  it("answers a transaction's confirmations from one committed state while blocks are being mined", async () => {
    const node = chains.node("solana");
    const paid = await chains.pay({ network: "SOL", toAddress: "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV", asset: "SOL", amount: "3" });
    const mining = chains.mine("solana", 15);
    const seen: number[] = [];
    let done = false;
    void mining.finally(() => (done = true));
    while (!done) {
      const status = await node.status(paid.txid);
      if (status.state === "confirmed") seen.push(status.confirmations);
      else expect(status).toMatchObject({ state: "pending", confirmations: 0 });
    }
    await mining;
    expect(seen.every((c, i) => c >= 1 && (i === 0 || c >= seen[i - 1]!))).toBe(true);
    expect((await node.status(paid.txid)).confirmations).toBe(15);
  });

  it("mines on the injected timer and leaves none behind when closed", async () => {
    await chains.close();
    const timers = new Map<number, { tick: () => void; stopped: boolean }>();
    chains = await start({
      autoMine: true,
      blockIntervalMs: { solana: 400 },
      every: (ms, tick) => {
        const timer = { tick, stopped: false };
        timers.set(timers.size, timer);
        if (ms === 400) timers.set(-1, timer);
        return () => (timer.stopped = true);
      },
    });
    expect([...timers.keys()].filter((k) => k >= 0)).toHaveLength(6);
    const solana = chains.node("solana");
    const before = (await solana.tip()).height;
    timers.get(-1)!.tick();
    await solana.idle();
    expect((await solana.tip()).height).toBe(before + 1);
    await chains.close();
    expect([...timers.values()].every((t) => t.stopped)).toBe(true);
    timers.get(-1)!.tick(); // a late tick after close mines nothing
    await solana.idle();
    expect((await solana.tip()).height).toBe(before + 1);
  });
});
