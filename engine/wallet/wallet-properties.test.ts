import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromMinor, toMinor } from "../../protocol/money";
import type { ChainGateway, ChainId, ChainNode } from "../chain/chain-gateway";
import { SimulatedChains } from "../chain/simulated-chain";
import { DurableCore } from "../journal/durable-core";
import { seedDemoMarkets } from "../sim/demo-markets";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { simChainWithdrawals } from "../testing/sim-chain-rows";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { depositId, DepositWatcher } from "./deposits/deposit-watcher";
import { WalletService } from "./wallet-service";
import { withdrawalProduct } from "./withdrawal-product";
import { WithdrawalSender } from "./withdrawal-sender";
import { WITHDRAWAL_ON_CHAIN, WithdrawalService } from "./withdrawal-service";
import { testAct } from "../testing/operator-act";

/**
 * Property (issue 12): random mixes of chain deposits (reported twice, read again after a lost
 * bookmark, re-orged and sometimes double-spent), transfers between a member's accounts (keys
 * retried), trades, withdrawals with every review step, sends, a chain that took a withdrawal
 * just before the engine stopped, and restarts of the engine keep every asset's ledger summing to
 * zero with no available balance negative, after every step. Once the chains and the sender
 * have settled: each deposit on the chain is credited exactly once, nothing the chain does not
 * hold is credited, and what the chains sent for withdrawals is exactly what the ledger paid out.
 *
 * Runs share one database (opening one takes seconds): each run has members of its own, and the
 * checks hold for the whole database.
 */

/** The two chains the runs use: bitcoin (BTC, 2 confirmations) and tron (USDT on TRC20, set to 3 here). */
const CHAINS = ["bitcoin", "tron"] as const;
type Chain = (typeof CHAINS)[number];
const COIN = { bitcoin: { coin: "BTC", network: "BTC", decimals: 8 }, tron: { coin: "USDT", network: "TRC20", decimals: 6 } } as const;
/** Where withdrawals go: valid addresses of nobody here. */
const OUTSIDE = { BTC: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", USDT: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL" } as const;
const FEE = { BTC: "0.0002", USDT: "1" } as const;
/** A re-org shallower than the confirmations (decision 027: the confirmations are what keeps a credited deposit safe). */
const MAX_REORG: Record<Chain, 1 | 2> = { bitcoin: 1, tron: 2 };

const member = fc.integer({ min: 0, max: 2 });
const chain = fc.constantFrom(...CHAINS);
/** An amount in a chain's units: from dust below the minimum to a sizeable sum. */
const chainAmount = (c: Chain, maxSatoshi = 50_000_000) =>
  c === "bitcoin"
    ? fc.integer({ min: 1_000, max: maxSatoshi }).map((n) => fromMinor(BigInt(n), 8))
    : fc.integer({ min: 100_000, max: 900_000_000 }).map((n) => fromMinor(BigInt(n), 6));
const op = fc.oneof(
  { weight: 4, arbitrary: chain.chain((c) => fc.record({ t: fc.constant("pay" as const), member, chain: fc.constant(c), amount: chainAmount(c) })) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant("mine" as const), chain, blocks: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("reorg" as const), chain, deep: fc.boolean(), doubleSpend: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("watch" as const), duplicate: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("forget" as const), chain }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("restart" as const) }) },
  {
    weight: 2,
    arbitrary: chain.chain((c) =>
      fc.record({
        t: fc.constant("transfer" as const),
        member,
        chain: fc.constant(c),
        toSpot: fc.boolean(),
        amount: chainAmount(c),
        key: fc.integer({ min: 0, max: 3 }),
      }),
    ),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant("order" as const),
      member,
      side: fc.constantFrom("buy" as const, "sell" as const),
      price: fc.integer({ min: 63_000, max: 65_000 }),
      quantity: fc.integer({ min: 10, max: 200_000 }),
      ioc: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("cancel" as const), member, pick: fc.nat() }) },
  {
    weight: 6,
    arbitrary: chain.chain((c) =>
      fc.record({
        t: fc.constant("withdraw" as const),
        member,
        chain: fc.constant(c),
        amount: chainAmount(c, 20_000_000),
        key: fc.integer({ min: 0, max: 7 }),
      }),
    ),
  },
  {
    weight: 10,
    arbitrary: fc.record({
      t: fc.constant("review" as const),
      pick: fc.nat(),
      action: fc.constantFrom("approve" as const, "approve" as const, "reject" as const, "reject" as const, "cancel" as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("send" as const) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("chainTook" as const), pick: fc.nat() }) },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

describe.each(testStoreKinds())("the wallet's ledger under random mixes on %s (property)", (kind) => {
  let store: TestStore;
  let chains: SimulatedChains;
  let durable: DurableCore;
  let spot: SpotService;
  let withdrawals: WithdrawalService;
  let watcher: DepositWatcher;
  let sender: WithdrawalSender;
  const warnings: string[] = [];
  /** Blocks the watcher reads are reported with every transfer twice while this is on. */
  let duplicate = false;
  /** Outside payments (only they may be double-spent; the exchange's own withdrawals never are). */
  const payments = new Map<string, { chain: Chain; index: number; amount: string; coin: string }>();
  let run = 0;

  /** The port as a node that reports each transfer twice would (the watcher must credit it once). */
  const gateway = (): ChainGateway => {
    const twice = (node: ChainNode): ChainNode => ({
      chain: node.chain,
      networks: node.networks,
      tip: () => node.tip(),
      blockAt: (height) => node.blockAt(height),
      blocksFrom: async (height, limit) =>
        (await node.blocksFrom(height, limit)).map((b) => (duplicate ? { ...b, transfers: b.transfers.flatMap((t) => [t, { ...t }]) } : b)),
      status: (txid) => node.status(txid),
      broadcast: (order) => node.broadcast(order),
      sent: (id) => node.sent(id),
    });
    return { chains: CHAINS, node: (c: ChainId) => twice(chains.node(c)), nodeFor: (n) => twice(chains.nodeFor(n)), close: async () => undefined };
  };

  /** The engine's parts on the database, as a start makes them (a restart: the old ones drain first). */
  const startEngine = async () => {
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, withdrawalProduct],
      onFatal: (error) => {
        throw error;
      },
    });
    spot = new SpotService(durable);
    withdrawals = new WithdrawalService(durable, { gateway: chains });
    watcher = new DepositWatcher({ durable, gateway: gateway(), warn: (m) => warnings.push(m) });
    sender = new WithdrawalSender(store.db, withdrawals, chains, { warn: (_obj, msg) => warnings.push(msg) });
  };

  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedDemoMarkets(store.db);
    // Fewer blocks to wait for on tron; its re-orgs of two blocks stay shallower than that.
    await store.db.updateTable("coin_network").set({ confirmations: 3 }).where("coin", "=", "USDT").where("network", "=", "TRC20").execute();
    chains = await SimulatedChains.start({ db: store.db, autoMine: false, reorgProbability: 0, seed: 12 });
    await startEngine();
    await watcher.pass(); // each chain's bookmark at its tip
  });
  afterAll(async () => {
    await chains?.close();
    await durable?.drain();
    await store?.dispose();
  });

  /** Three new members with deposit addresses and some funds to trade and withdraw (an operator's deposits). */
  const newMembers = async (r: number) => {
    const wallet = new WalletService(store.db);
    const members: Array<{ id: string; btc: string; usdt: string }> = [];
    for (let i = 0; i < 3; i++) {
      const { id } = await store.db
        .insertInto("member")
        .values({
          uid: `P${kind[0]}${r}x${i}`,
          email: `prop-${kind}-${r}-${i}@example.com`,
          password_hash: "-",
          invite_code: `PR${kind[0]}${r}X${i}`,
          chat_key: randomBytes(16).toString("hex"),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const memberId = String(id);
      for (const [coin, kindOf, amount] of [
        ["BTC", "spot", "2"],
        ["USDT", "spot", "150000"],
        ["BTC", "funding", "0.5"],
        ["USDT", "funding", "5000"],
      ] as const)
        expect(await durable.funds.deposit(memberId, coin, kindOf, amount, `op:${kind}:${r}:${i}:${coin}:${kindOf}`)).toBe(true);
      members.push({
        id: memberId,
        btc: (await wallet.depositAddress(memberId, "BTC", "BTC", Date.now())).address,
        usdt: (await wallet.depositAddress(memberId, "USDT", "TRC20", Date.now())).address,
      });
    }
    return members;
  };

  const checkLedger = () => {
    expect(durable.core.ledger.checkInvariants()).toEqual([]);
    for (const market of durable.core.markets.values()) expect(market.checkInvariants()).toEqual([]);
  };

  /** Applies one step; answers nothing, checks what a single step must keep. */
  const step = async (o: Op, ctx: { r: number; members: Awaited<ReturnType<typeof newMembers>>; orders: string[]; withdrawalIds: string[] }) => {
    const m = "member" in o ? ctx.members[o.member]! : undefined;
    switch (o.t) {
      case "pay": {
        const { coin, network } = COIN[o.chain];
        const paid = await chains.pay({ network, toAddress: o.chain === "bitcoin" ? m!.btc : m!.usdt, asset: coin, amount: o.amount });
        payments.set(paid.txid, { chain: o.chain, index: paid.index, amount: o.amount, coin });
        return;
      }
      case "mine":
        await chains.mine(o.chain, o.blocks);
        return;
      case "reorg":
        await chains.reorg(o.chain, o.deep ? MAX_REORG[o.chain] : 1, (txid) => o.doubleSpend && payments.has(txid));
        return;
      case "watch":
        duplicate = o.duplicate;
        try {
          await watcher.pass();
        } finally {
          duplicate = false;
        }
        return;
      case "forget":
        // A lost bookmark: the next pass reads the chain's recent blocks again, credited deposits among them.
        await store.db.deleteFrom("deposit_watch").where("chain", "=", o.chain).execute();
        await store.db.deleteFrom("deposit_watch_block").where("chain", "=", o.chain).execute();
        return;
      case "restart":
        await watcher.stop();
        await durable.drain();
        await startEngine();
        return;
      case "transfer": {
        const { coin } = COIN[o.chain];
        const [from, to] = o.toSpot ? (["funding", "spot"] as const) : (["spot", "funding"] as const);
        await durable.funds.transferBetween(m!.id, coin, from, to, o.amount, `trans:${m!.id}:prop-${ctx.r}-${o.key}`);
        return;
      }
      case "order": {
        const answer = await spot.placeOrder(
          m!.id,
          { symbol: "BTC/USDT", side: o.side, type: "limit", price: String(o.price), quantity: fromMinor(BigInt(o.quantity), 6), tif: o.ioc ? "IOC" : "GTC" },
          null,
        );
        if (answer.orderId && answer.status === "open") ctx.orders.push(answer.orderId);
        return;
      }
      case "cancel":
        if (ctx.orders.length) await spot.cancelOrder(m!.id, ctx.orders[o.pick % ctx.orders.length]!);
        return;
      case "withdraw": {
        const { coin, network } = COIN[o.chain];
        const answer = await withdrawals.request(
          m!.id,
          { coin, network, address: OUTSIDE[coin], amount: o.amount, fee: FEE[coin] },
          `wd-${kind}-${ctx.r}-${o.key}`,
        );
        if (answer.id && !ctx.withdrawalIds.includes(answer.id)) ctx.withdrawalIds.push(answer.id);
        return;
      }
      case "review": {
        // Mostly an open one; now and then any, final ones included (refused, changing nothing).
        const open = ctx.withdrawalIds.filter((id) => durable.core.withdrawals.get(id) !== undefined);
        const among = open.length && o.pick % 5 !== 0 ? open : ctx.withdrawalIds;
        if (!among.length) return;
        const id = among[o.pick % among.length]!;
        const owner = durable.core.withdrawals.get(id)?.memberId;
        const code =
          o.action === "cancel"
            ? await withdrawals.cancel(owner ?? "nobody", id)
            : await withdrawals.review(id, o.action, o.action === "reject" ? "Refused in a test." : undefined, testAct());
        // A withdrawal's money goes back only while no chain holds it.
        if (code === "OK" && o.action !== "approve") for (const c of CHAINS) expect(await chains.node(c).sent(id)).toBeNull();
        if (code === WITHDRAWAL_ON_CHAIN) expect(durable.core.withdrawals.get(id)?.state).toBe("approved");
        return;
      }
      case "send":
        await durable.projectedAll();
        await sender.pass();
        return;
      case "chainTook": {
        // The sender's chain call went through and the engine stopped before the broadcast step.
        const approved = ctx.withdrawalIds.filter((id) => durable.core.withdrawals.get(id)?.state === "approved");
        if (!approved.length) return;
        const id = approved[o.pick % approved.length]!;
        await durable.projectedAll();
        const row = await store.db.selectFrom("wallet_withdrawal").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
        await chains
          .nodeFor(row.network as "BTC" | "TRC20")
          .broadcast({ withdrawalId: id, toAddress: row.address!, tag: null, asset: row.coin, amount: trim(String(row.amount)) });
        return;
      }
    }
  };

  /** Every chain mines past the confirmations, the watcher reads it all, the sender sends and completes. */
  const settle = async () => {
    for (let i = 0; i < 2; i++) {
      await durable.projectedAll();
      await sender.pass();
      for (const c of CHAINS) await chains.mine(c, 4);
      await watcher.pass();
      await watcher.pass(); // a lost bookmark reads in several passes
      await durable.projectedAll();
      await sender.pass();
    }
    await durable.projectedAll();
  };

  /** What must hold over the whole database once settled. */
  const checkSettled = async () => {
    checkLedger();
    // Deposits: every outside payment that the chain holds with its confirmations, at or above the
    // minimum, is credited exactly once with its own id; nothing else was credited from a chain.
    const credited = new Map(
      (await store.db.selectFrom("ledger_transfer").select(["id", "asset", "amount"]).where("id", "like", "chain:%").execute()).map((t) => [t.id, t]),
    );
    const rows = new Map((await store.db.selectFrom("wallet_deposit").selectAll().execute()).map((d) => [d.id, d]));
    const minimum = { BTC: toMinor("0.0001", 8), USDT: toMinor("1", 8) } as Record<string, bigint>;
    for (const [txid, p] of payments) {
      const id = depositId(p.chain, txid, p.index);
      const status = await chains.node(p.chain).status(txid);
      const due = status.state === "confirmed" && status.confirmations >= (p.chain === "bitcoin" ? 2 : 3) && toMinor(p.amount, 8) >= minimum[p.coin]!;
      expect(credited.has(id), `${id}: ${status.state}, ${status.confirmations} confirmations, ${p.amount} ${p.coin}`).toBe(due);
      if (due) {
        expect(toMinor(String(credited.get(id)!.amount).replace(/\.?0+$/, ""), 8)).toBe(toMinor(p.amount, 8));
        expect(rows.get(id)).toMatchObject({ state: "credited" });
      }
    }
    expect([...credited.keys()].filter((id) => !rows.has(id))).toEqual([]);
    // Withdrawals: at most one chain transaction each; the chains sent exactly what the ledger paid out.
    const sent = await simChainWithdrawals(store.db);
    const perId = new Map<string, number>();
    for (const tx of sent) perId.set(tx.withdrawal_id, (perId.get(tx.withdrawal_id) ?? 0) + 1);
    expect([...perId.values()].filter((n) => n !== 1)).toEqual([]);
    const paidOut = await store.db
      .selectFrom("wallet_withdrawal")
      .select(["id", "coin", "amount", "txid"])
      .where("state", "in", ["broadcast", "completed"])
      .execute();
    expect(new Map(paidOut.map((w) => [w.id, [w.coin, toMinor(trim(String(w.amount)), 8), w.txid]]))).toEqual(
      new Map(sent.map((tx) => [tx.withdrawal_id, [tx.asset, toMinor(tx.amount, 8), tx.txid]])),
    );
    expect(warnings).toEqual([]);
  };

  it("keeps every asset's ledger at zero and no balance negative; credits each deposit once; sends each withdrawal once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 20, maxLength: 40 }), async (ops) => {
        const r = ++run;
        const ctx = { r, members: await newMembers(r), orders: [] as string[], withdrawalIds: [] as string[] };
        for (const o of ops) {
          await step(o, ctx);
          checkLedger();
        }
        await settle();
        await checkSettled();
      }),
      { numRuns: 30, endOnFailure: true },
    );
  }, 240_000);
});

/** A NUMERIC's text without trailing zeros. */
function trim(value: string): string {
  return value.includes(".") ? value.replace(/\.?0+$/, "") : value;
}
