import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChainGateway, ChainNode } from "../chain/chain-gateway";
import { SimulatedChains } from "../chain/simulated-chain";
import { DurableCore } from "../journal/durable-core";
import { simChainWithdrawals } from "../testing/sim-chain-rows";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { withdrawalProduct } from "./withdrawal-product";
import { WithdrawalSender } from "./withdrawal-sender";
import { WITHDRAWAL_ON_CHAIN, WithdrawalService } from "./withdrawal-service";
import { testAct } from "../testing/operator-act";

/**
 * Approved withdrawals are sent once, however often the sender runs or restarts, and complete once
 * confirmed; one a chain holds is never rejected (its money has left), whether the chain took it
 * just before a crash or while the rejection arrived.
 */
describe.each(testStoreKinds())("the withdrawal sender on %s", (kind) => {
  let store: TestStore;
  let durable: DurableCore;
  let chains: SimulatedChains;
  let withdrawals: WithdrawalService;
  let n = 0;
  const TRON = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";

  beforeAll(async () => {
    store = await openTestStore(kind);
    durable = await DurableCore.start({
      db: store.db,
      products: [withdrawalProduct],
      onFatal: (e) => {
        throw e;
      },
    });
    chains = await SimulatedChains.start({ db: store.db, autoMine: false, reorgProbability: 0, seed: 7 });
    withdrawals = new WithdrawalService(durable, { newId: () => `ws-${kind}-${++n}`, gateway: chains });
    expect(await durable.funds.deposit("1", "USDT", "funding", "500", "dep-ws-1")).toBe(true);
  });
  afterAll(async () => {
    await chains?.close();
    await durable?.drain();
    await store?.dispose();
  });

  it("sends an approved withdrawal once, also when a crash left it approved after the chain took it, and completes it when confirmed", async () => {
    const asked = await withdrawals.request("1", { coin: "USDT", network: "TRC20", address: TRON, amount: "100", fee: "1" }, "key-ws-1");
    const id = asked.id!;
    const inReview = await withdrawals.request("1", { coin: "USDT", network: "TRC20", address: TRON, amount: "5", fee: "1" }, "key-ws-2");
    expect(await withdrawals.review(id, "approve", undefined, testAct())).toBe("OK");

    // A crash after the chain took it, before the broadcast step was journaled: the chain has it once.
    const first = await chains.nodeFor("TRC20").broadcast({ withdrawalId: id, toAddress: TRON, tag: null, asset: "USDT", amount: "100" });
    const sender = new WithdrawalSender(store.db, withdrawals, chains);
    expect(await sender.pass()).toEqual({ sent: 1, completed: 0 });
    expect(await sender.pass()).toEqual({ sent: 0, completed: 0 });
    const [row] = (await withdrawals.ofMember("1", { pageNo: 1, pageSize: 10 })).records.filter((r) => r.id === id);
    expect(row).toMatchObject({ state: "broadcast", txid: first.txid });
    const sentTo = (await chains.nodeFor("TRC20").blocksFrom(0)).flatMap((b) => b.transfers);
    expect(sentTo.filter((t) => t.txid === first.txid)).toHaveLength(0); // still in the mempool
    expect(durable.funds.balances("1", "funding").find((b) => b.coin === "USDT")).toEqual({ coin: "USDT", available: "393", frozen: "6" });

    // Confirmations: the seeded TRC20 rule wants its number of blocks on top.
    const { confirmations } = await store.db
      .selectFrom("coin_network")
      .select("confirmations")
      .where("coin", "=", "USDT")
      .where("network", "=", "TRC20")
      .executeTakeFirstOrThrow();
    await chains.mine("tron", 1);
    expect((await sender.pass()).completed).toBe(confirmations <= 1 ? 1 : 0);
    await chains.mine("tron", confirmations);
    await sender.pass();
    const done = (await withdrawals.ofMember("1", { pageNo: 1, pageSize: 10 })).records.find((r) => r.id === id);
    expect(done).toMatchObject({ state: "completed", txid: first.txid });
    const mined = (await chains.nodeFor("TRC20").blocksFrom(0)).flatMap((b) => b.transfers).filter((t) => t.txid === first.txid);
    expect(mined).toHaveLength(1);
    expect(mined[0]).toMatchObject({ toAddress: TRON, asset: "USDT", amount: "100" });
    // The one in review was never sent.
    expect((await withdrawals.inState("review")).map((w) => w.id)).toEqual([inReview.id]);
  });

  const held = () => durable.funds.balances("1", "funding").find((b) => b.coin === "USDT")!.frozen;
  const approvedOne = async (key: string, amount: string) => {
    const { id } = await withdrawals.request("1", { coin: "USDT", network: "TRC20", address: TRON, amount, fee: "1" }, key);
    expect(await withdrawals.review(id!, "approve", undefined, testAct())).toBe("OK");
    return id!;
  };

  it("refuses to reject an approved withdrawal the chain took before a crash; the sender then records it as sent", async () => {
    const id = await approvedOne("key-ws-3", "7");
    const heldBefore = held();
    // The chain took it; the engine stopped before journaling the broadcast step.
    const taken = await chains.nodeFor("TRC20").broadcast({ withdrawalId: id, toAddress: TRON, tag: null, asset: "USDT", amount: "7" });
    expect(await chains.nodeFor("TRC20").sent(id)).toEqual({ txid: taken.txid });
    expect(await chains.nodeFor("ERC20").sent(id)).toBeNull();
    expect(await withdrawals.review(id, "reject", "The member asked us to stop it.", testAct())).toBe(WITHDRAWAL_ON_CHAIN);
    expect(durable.core.withdrawals.get(id)?.state).toBe("approved");
    expect(held()).toBe(heldBefore);

    expect((await new WithdrawalSender(store.db, withdrawals, chains).pass()).sent).toBe(1);
    expect(durable.core.withdrawals.get(id)?.state).toBe("broadcast");
    expect((await simChainWithdrawals(store.db, id)).map((tx) => tx.txid)).toEqual([taken.txid]);
  });

  it("an operator's rejection that arrives while the sender hands the withdrawal to the chain waits, and is then refused", async () => {
    const id = await approvedOne("key-ws-4", "3");
    // A chain whose broadcast waits until the test lets it go.
    let entered!: () => void;
    let release!: () => void;
    const inBroadcast = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tron = chains.node("tron");
    const slow: ChainNode = {
      chain: tron.chain,
      networks: tron.networks,
      tip: () => tron.tip(),
      blockAt: (height) => tron.blockAt(height),
      blocksFrom: (height, limit) => tron.blocksFrom(height, limit),
      status: (txid) => tron.status(txid),
      sent: (withdrawalId) => tron.sent(withdrawalId),
      broadcast: async (order) => {
        entered();
        await gate;
        return tron.broadcast(order);
      },
    };
    const gateway: ChainGateway = {
      chains: chains.chains,
      node: (chain) => (chain === "tron" ? slow : chains.node(chain)),
      nodeFor: (network) => (network === "TRC20" ? slow : chains.nodeFor(network)),
      close: async () => undefined,
    };
    const sending = new WithdrawalSender(store.db, withdrawals, gateway).pass();
    await inBroadcast;
    const rejecting = withdrawals.review(id, "reject", "Too late, as it turns out.", testAct());
    release();
    expect(await sending).toMatchObject({ sent: 1 });
    expect(await rejecting).toBe("WITHDRAWAL_WRONG_STATE");
    expect(durable.core.withdrawals.get(id)?.state).toBe("broadcast");
    expect(durable.core.ledger.checkInvariants()).toEqual([]);
  });

  it("does not hand a withdrawal rejected meanwhile to the chain", async () => {
    const id = await approvedOne("key-ws-5", "2");
    expect(await withdrawals.review(id, "reject", "Sanctioned address.", testAct())).toBe("OK");
    let asked = false;
    expect(
      await withdrawals.send(id, async () => {
        asked = true;
        return "never";
      }),
    ).toBe("WITHDRAWAL_WRONG_STATE");
    expect(asked).toBe(false);
    expect(await chains.nodeFor("TRC20").sent(id)).toBeNull();
  });
});
