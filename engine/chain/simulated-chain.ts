import { createHash, randomInt } from "node:crypto";
import type { Generated, Kysely, Transaction } from "kysely";
import type { ChainNetwork } from "../../protocol/endpoints/chain";
import { seeded } from "../sim/seeded-random";
import type { Database } from "../store/schema";
import {
  ChainRefusal,
  type BlockRef,
  type Broadcast,
  type ChainBlock,
  type ChainGateway,
  type ChainId,
  type ChainNode,
  type ChainTransfer,
  type OutsidePayer,
  type TxStatus,
  type WithdrawalOrder,
} from "./chain-gateway";
import { CHAIN_IDS, CHAIN_OF_NETWORK, CHAINS, chainAmount } from "./networks";

/**
 * The embedded simulated chains, the default adapter of the chain gateway (decision 025): per
 * chain a block on a timer, a mempool, txids and block hashes in each chain's own format, and now
 * and then a re-org of the last one or two blocks, in which a transaction is sometimes double-spent
 * (dropped for good) and otherwise goes back to the mempool. Blocks and transactions are kept in
 * the database (migration 018), so confirmations continue after a restart and a withdrawal
 * broadcast twice is sent once. Deterministic under test: a seeded random source, an injectable
 * clock and timer, and `mine(n)`.
 */

/** Milliseconds between blocks: fast, so a demo deposit confirms well within a minute. */
export const DEFAULT_BLOCK_INTERVAL_MS: Readonly<Record<ChainId, number>> = {
  bitcoin: 10_000,
  dogecoin: 6_000,
  ethereum: 4_000,
  tron: 3_000,
  xrp: 4_000,
  solana: 2_000,
};

/** Heights of a fresh install's first block (about mainnet's, so numbers look familiar). */
const START_HEIGHT: Readonly<Record<ChainId, number>> = {
  bitcoin: 880_000,
  dogecoin: 5_500_000,
  ethereum: 21_500_000,
  tron: 68_000_000,
  xrp: 93_000_000,
  solana: 310_000_000,
};

export interface SimulatedChainOptions {
  db: Kysely<Database>;
  /** Per chain; chains not named use DEFAULT_BLOCK_INTERVAL_MS. */
  blockIntervalMs?: Partial<Record<ChainId, number>>;
  /** Chance, after each mined block, that the last 1–2 blocks are replaced (default 0.03). */
  reorgProbability?: number;
  /** Chance that an outside payment in a replaced block is double-spent (default 0.25); the exchange's own withdrawals are never. */
  doubleSpendProbability?: number;
  /** Seed of the random source (tests); default: a new one per start. */
  seed?: number;
  /** The clock of block times (default Date.now). */
  now?: () => number;
  /** Mine on timers (default); false: the caller mines with `mine` (tests). */
  autoMine?: boolean;
  /** The timer: runs `tick` every `ms` until the returned function is called (default setInterval). */
  every?: (ms: number, tick: () => void) => () => void;
  /** Blocks kept below the tip (older ones are pruned; default 10,000). */
  keepBlocks?: number;
  /** Where a failed timer tick is reported (default console.warn). */
  warn?: (message: string) => void;
}

/** The adapter's own tables (migration 018); no other part of the engine reads them. */
type SimTables = {
  sim_chain: { chain: string; nonce: string | number };
  sim_chain_block: { chain: string; height: string | number; hash: string; parent_hash: string; mined_at: string | number };
  sim_chain_tx: {
    chain: string;
    txid: string;
    vout: number;
    to_address: string;
    tag: string | null;
    asset: string;
    contract: string | null;
    amount: string;
    block_height: string | number | null;
    dropped: boolean;
    withdrawal_id: string | null;
    seq: Generated<string | number>;
    created_at: string | number;
  };
};
type SimDb = Kysely<SimTables>;

/** A re-org's outcome, for tests and the log. */
export interface Reorg {
  replaced: BlockRef[];
  tip: BlockRef;
  dropped: string[];
  returned: string[];
}

/** One simulated chain: its tip in memory, everything else in the database; changes one at a time. */
class SimulatedNode implements ChainNode {
  readonly networks: readonly ChainNetwork[];
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    readonly chain: ChainId,
    private readonly db: SimDb,
    private readonly random: () => number,
    private readonly options: { now: () => number; reorgProbability: number; doubleSpendProbability: number; keepBlocks: number },
    private nonce: number,
    private tipBlock: BlockRef,
  ) {
    this.networks = CHAINS[chain].networks;
  }

  static async open(chain: ChainId, db: SimDb, random: () => number, options: SimulatedNode["options"]): Promise<SimulatedNode> {
    await db
      .insertInto("sim_chain")
      .values({ chain, nonce: 0 })
      .onConflict((c) => c.column("chain").doNothing())
      .execute();
    const row = await db.selectFrom("sim_chain").select("nonce").where("chain", "=", chain).executeTakeFirstOrThrow();
    const top = await db.selectFrom("sim_chain_block").selectAll().where("chain", "=", chain).orderBy("height", "desc").limit(1).executeTakeFirst();
    const node = new SimulatedNode(chain, db, random, options, Number(row.nonce), top ? blockOf(top) : ({} as BlockRef));
    if (!top) {
      // A fresh install: the chain's first block.
      await db.transaction().execute(async (trx) => {
        const height = START_HEIGHT[chain];
        const genesis = { height, hash: node.blockHash(height), parentHash: node.blockHash(height - 1), time: options.now() };
        await node.insertBlock(trx, genesis);
        await node.saveNonce(trx);
        node.tipBlock = genesis;
      });
    }
    return node;
  }

  /** Runs changes one after another (the timer, broadcasts and outside payments meet here). */
  private serial<T>(change: () => Promise<T>): Promise<T> {
    const run = this.tail.then(change);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Waits for the changes under way. */
  idle(): Promise<unknown> {
    return this.tail;
  }

  async tip(): Promise<BlockRef> {
    return { ...this.tipBlock };
  }

  async blockAt(height: number): Promise<BlockRef | null> {
    const row = await this.db.selectFrom("sim_chain_block").selectAll().where("chain", "=", this.chain).where("height", "=", height).executeTakeFirst();
    return row ? blockOf(row) : null;
  }

  async blocksFrom(height: number, limit = 100): Promise<ChainBlock[]> {
    const blocks = await this.db
      .selectFrom("sim_chain_block")
      .selectAll()
      .where("chain", "=", this.chain)
      .where("height", ">=", height)
      .orderBy("height")
      .limit(Math.max(1, Math.min(limit, 1000)))
      .execute();
    if (blocks.length === 0) return [];
    const first = Number(blocks[0]!.height);
    const last = Number(blocks[blocks.length - 1]!.height);
    const txs = await this.db
      .selectFrom("sim_chain_tx")
      .selectAll()
      .where("chain", "=", this.chain)
      .where("block_height", ">=", first)
      .where("block_height", "<=", last)
      .where("dropped", "=", false)
      .orderBy("seq")
      .execute();
    return blocks.map((row) => {
      const block = blockOf(row);
      return { ...block, transfers: txs.filter((tx) => Number(tx.block_height) === block.height).map(transferOf) };
    });
  }

  async status(txid: string): Promise<TxStatus> {
    // One statement: the transaction, its block and the tip as one committed state (a block may be
    // committing meanwhile).
    const tx = await this.db
      .selectFrom("sim_chain_tx as t")
      .select((eb) => [
        "t.block_height",
        "t.dropped",
        eb.selectFrom("sim_chain_block as b").select("b.hash").whereRef("b.chain", "=", "t.chain").whereRef("b.height", "=", "t.block_height").as("block_hash"),
        eb
          .selectFrom("sim_chain_block as b")
          .select((b) => b.fn.max("b.height").as("h"))
          .whereRef("b.chain", "=", "t.chain")
          .as("tip_height"),
      ])
      .where("t.chain", "=", this.chain)
      .where("t.txid", "=", txid)
      .executeTakeFirst();
    if (!tx) return { txid, state: "unknown", confirmations: 0, block: null };
    if (tx.dropped) return { txid, state: "dropped", confirmations: 0, block: null };
    if (tx.block_height === null) return { txid, state: "pending", confirmations: 0, block: null };
    const height = Number(tx.block_height);
    return {
      txid,
      state: "confirmed",
      confirmations: Number(tx.tip_height) - height + 1,
      block: tx.block_hash === null ? null : { height, hash: tx.block_hash },
    };
  }

  broadcast(order: WithdrawalOrder): Promise<Broadcast> {
    return this.serial(async () => {
      const { asset, amount } = chainAmount(this.chain, order.asset, order.amount);
      const tag = this.tagOf(order.tag);
      const sent = await this.db.selectFrom("sim_chain_tx").selectAll().where("withdrawal_id", "=", order.withdrawalId).executeTakeFirst();
      if (sent) {
        const same =
          sent.chain === this.chain && sent.to_address === order.toAddress && sent.asset === order.asset && sent.amount === amount && sent.tag === tag;
        if (!same) throw new ChainRefusal(`withdrawal ${order.withdrawalId} was broadcast before with other details`);
        return { txid: sent.txid, alreadySent: true };
      }
      const transfer = await this.insertTx({
        toAddress: order.toAddress,
        tag,
        asset: order.asset,
        contract: asset.contract,
        amount,
        withdrawalId: order.withdrawalId,
      });
      return { txid: transfer.txid, alreadySent: false };
    });
  }

  async sent(withdrawalId: string): Promise<{ txid: string } | null> {
    const row = await this.db
      .selectFrom("sim_chain_tx")
      .select("txid")
      .where("chain", "=", this.chain)
      .where("withdrawal_id", "=", withdrawalId)
      .executeTakeFirst();
    return row ? { txid: row.txid } : null;
  }

  /** An outside wallet pays into an address: a transaction in the mempool. */
  pay(payment: { toAddress: string; asset: string; amount: string; tag?: string | null }): Promise<ChainTransfer> {
    return this.serial(async () => {
      const { asset, amount } = chainAmount(this.chain, payment.asset, payment.amount);
      return this.insertTx({
        toAddress: payment.toAddress,
        tag: this.tagOf(payment.tag),
        asset: payment.asset,
        contract: asset.contract,
        amount,
        withdrawalId: null,
      });
    });
  }

  /** Mines `n` blocks (each takes the whole mempool); after each, a re-org with the configured chance. */
  mine(n = 1): Promise<BlockRef[]> {
    return this.serial(async () => {
      const mined: BlockRef[] = [];
      for (let i = 0; i < n; i++) {
        mined.push(await this.mineOne(true));
        if (this.random() < this.options.reorgProbability) await this.reorgNow(this.random() < 0.5 ? 1 : 2);
      }
      return mined;
    });
  }

  /**
   * Replaces the last `depth` blocks by `depth + 1` blocks of a competing miner. Each transaction of
   * the replaced blocks is double-spent (`doubleSpend` says which; default: the configured chance,
   * never the exchange's own withdrawals) or goes back to the mempool for the next block.
   */
  reorg(depth: number, doubleSpend?: (txid: string) => boolean): Promise<Reorg> {
    return this.serial(() => this.reorgNow(depth, doubleSpend));
  }

  private async reorgNow(wanted: number, doubleSpend?: (txid: string) => boolean): Promise<Reorg> {
    const base = Math.max(this.tipBlock.height - Math.max(1, Math.min(wanted, 2)), START_HEIGHT[this.chain]);
    const replacedRows = await this.db
      .selectFrom("sim_chain_block")
      .selectAll()
      .where("chain", "=", this.chain)
      .where("height", ">", base)
      .orderBy("height")
      .execute();
    const baseBlock = await this.blockAt(base);
    if (replacedRows.length === 0 || !baseBlock) return { replaced: [], tip: this.tipBlock, dropped: [], returned: [] };
    const txs = await this.db
      .selectFrom("sim_chain_tx")
      .select(["txid", "withdrawal_id"])
      .where("chain", "=", this.chain)
      .where("block_height", ">", base)
      .where("dropped", "=", false)
      .execute();
    const dropped: string[] = [];
    const returned: string[] = [];
    for (const tx of txs) {
      const spent = doubleSpend ? doubleSpend(tx.txid) : tx.withdrawal_id === null && this.random() < this.options.doubleSpendProbability;
      (spent ? dropped : returned).push(tx.txid);
    }
    const nonce = this.nonce;
    let tip = baseBlock;
    try {
      await this.db.transaction().execute(async (trx) => {
        if (dropped.length)
          await trx
            .updateTable("sim_chain_tx")
            .set({ dropped: true, block_height: null })
            .where("chain", "=", this.chain)
            .where("txid", "in", dropped)
            .execute();
        if (returned.length)
          await trx.updateTable("sim_chain_tx").set({ block_height: null }).where("chain", "=", this.chain).where("txid", "in", returned).execute();
        await trx.deleteFrom("sim_chain_block").where("chain", "=", this.chain).where("height", ">", base).execute();
        // The competing miner's blocks carry none of ours: the returned ones wait for the next block.
        for (let i = 0; i <= replacedRows.length; i++) tip = await this.appendBlock(trx, tip, false);
        await this.saveNonce(trx);
      });
    } catch (error) {
      this.nonce = nonce;
      throw error;
    }
    this.tipBlock = tip;
    return { replaced: replacedRows.map(blockOf), tip: this.tipBlock, dropped, returned };
  }

  private async mineOne(withMempool: boolean): Promise<BlockRef> {
    const nonce = this.nonce;
    try {
      this.tipBlock = await this.db.transaction().execute(async (trx) => {
        const block = await this.appendBlock(trx, this.tipBlock, withMempool);
        await trx
          .deleteFrom("sim_chain_block")
          .where("chain", "=", this.chain)
          .where("height", "<", block.height - this.options.keepBlocks)
          .execute();
        await this.saveNonce(trx);
        return block;
      });
      return this.tipBlock;
    } catch (error) {
      this.nonce = nonce;
      throw error;
    }
  }

  /** A block on `parent` (with the mempool's transactions, or empty); the caller publishes it as the tip once committed. */
  private async appendBlock(trx: Transaction<SimTables>, parent: BlockRef, withMempool: boolean): Promise<BlockRef> {
    const height = parent.height + 1;
    const block: BlockRef = { height, hash: this.blockHash(height), parentHash: parent.hash, time: Math.max(this.options.now(), parent.time) };
    await this.insertBlock(trx, block);
    if (withMempool) {
      await trx
        .updateTable("sim_chain_tx")
        .set({ block_height: height })
        .where("chain", "=", this.chain)
        .where("block_height", "is", null)
        .where("dropped", "=", false)
        .execute();
    }
    return block;
  }

  private async insertBlock(trx: Transaction<SimTables>, block: BlockRef): Promise<void> {
    await trx
      .insertInto("sim_chain_block")
      .values({ chain: this.chain, height: block.height, hash: block.hash, parent_hash: block.parentHash, mined_at: block.time })
      .execute();
  }

  private async insertTx(tx: {
    toAddress: string;
    tag: string | null;
    asset: string;
    contract: string | null;
    amount: string;
    withdrawalId: string | null;
  }): Promise<ChainTransfer> {
    const txid = this.txid();
    // A UTXO payment has a change output (vout 0 or 1); a token transfer is one log of the block's many.
    const utxo = this.chain === "bitcoin" || this.chain === "dogecoin";
    const index = utxo ? Math.floor(this.random() * 2) : tx.contract ? Math.floor(this.random() * 200) : 0;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("sim_chain_tx")
        .values({
          chain: this.chain,
          txid,
          vout: index,
          to_address: tx.toAddress,
          tag: tx.tag,
          asset: tx.asset,
          contract: tx.contract,
          amount: tx.amount,
          block_height: null,
          dropped: false,
          withdrawal_id: tx.withdrawalId,
          created_at: this.options.now(),
        })
        .execute();
      await this.saveNonce(trx);
    });
    return { txid, index, toAddress: tx.toAddress, tag: tx.tag, asset: tx.asset, contract: tx.contract, amount: tx.amount };
  }

  private tagOf(tag: string | null | undefined): string | null {
    if (tag === undefined || tag === null || tag === "") return null;
    if (!CHAINS[this.chain].tags) throw new ChainRefusal(`${this.chain} transfers carry no destination tag`);
    if (!/^\d{1,10}$/.test(tag) || Number(tag) > 4_294_967_295) throw new ChainRefusal("a destination tag is a number below 2^32");
    return tag;
  }

  private saveNonce(trx: Transaction<SimTables>): Promise<unknown> {
    return trx.updateTable("sim_chain").set({ nonce: this.nonce }).where("chain", "=", this.chain).execute();
  }

  /** Fresh bytes: the persisted nonce (never reused) and the seeded random source. */
  private entropy(kind: string, size: 32 | 64): Buffer {
    this.nonce += 1;
    const text = `${this.chain}|${kind}|${this.nonce}|${this.random()}`;
    return createHash(size === 32 ? "sha256" : "sha512")
      .update(text)
      .digest();
  }

  /** A block hash in the chain's own format. */
  private blockHash(height: number): string {
    const bytes = this.entropy("block", 32);
    switch (this.chain) {
      case "bitcoin":
      case "dogecoin":
        return "00000000" + bytes.toString("hex").slice(8); // proof of work's leading zeros
      case "ethereum":
        return "0x" + bytes.toString("hex");
      case "tron":
        return height.toString(16).padStart(16, "0") + bytes.toString("hex").slice(16); // TRON block ids start with the height
      case "xrp":
        return bytes.toString("hex").toUpperCase();
      case "solana":
        return base58(bytes);
    }
  }

  /** A txid in the chain's own format (Solana's is a base58 signature). */
  private txid(): string {
    if (this.chain === "solana") return base58(this.entropy("tx", 64));
    const hex = this.entropy("tx", 32).toString("hex");
    return this.chain === "ethereum" ? "0x" + hex : this.chain === "xrp" ? hex.toUpperCase() : hex;
  }
}

/** The simulated adapter: the gateway port and an outside payer over one simulated node per chain. */
export class SimulatedChains implements ChainGateway, OutsidePayer {
  readonly chains: readonly ChainId[] = CHAIN_IDS;
  private readonly stopTimers: Array<() => void> = [];
  private closed = false;

  private constructor(private readonly nodes: Map<ChainId, SimulatedNode>) {}

  static async start(options: SimulatedChainOptions): Promise<SimulatedChains> {
    // The adapter's own tables are typed here, not in the shared schema: nothing else reads them.
    const db = options.db.withTables<SimTables>() as unknown as SimDb;
    const settings = {
      now: options.now ?? Date.now,
      reorgProbability: options.reorgProbability ?? 0.03,
      doubleSpendProbability: options.doubleSpendProbability ?? 0.25,
      keepBlocks: options.keepBlocks ?? 10_000,
    };
    const nodes = new Map<ChainId, SimulatedNode>();
    const seed = options.seed ?? randomInt(2 ** 31);
    for (const [i, chain] of CHAIN_IDS.entries()) {
      nodes.set(chain, await SimulatedNode.open(chain, db, seeded(seed + i * 7919), settings));
    }
    const chains = new SimulatedChains(nodes);
    if (options.autoMine ?? true) {
      const every =
        options.every ??
        ((ms: number, tick: () => void) => {
          // Unref'd: the engine's server keeps the process alive, a failed start is not held open by blocks.
          const timer = setInterval(tick, ms).unref();
          return () => clearInterval(timer);
        });
      const warn = options.warn ?? ((message: string) => console.warn(message));
      for (const [chain, node] of nodes) {
        let busy = false;
        const tick = () => {
          if (busy || chains.closed) return;
          busy = true;
          node
            .mine(1)
            .catch((error: unknown) => warn(`[chain] ${chain}: mining failed: ${(error as Error).message}`))
            .finally(() => (busy = false));
        };
        chains.stopTimers.push(every(options.blockIntervalMs?.[chain] ?? DEFAULT_BLOCK_INTERVAL_MS[chain], tick));
      }
    }
    return chains;
  }

  node(chain: ChainId): SimulatedNode {
    const node = this.nodes.get(chain);
    if (!node) throw new ChainRefusal(`no chain ${chain}`);
    return node;
  }

  nodeFor(network: ChainNetwork): SimulatedNode {
    return this.node(CHAIN_OF_NETWORK[network]);
  }

  pay(payment: { network: ChainNetwork; toAddress: string; asset: string; amount: string; tag?: string | null }): Promise<ChainTransfer> {
    return this.nodeFor(payment.network).pay(payment);
  }

  /** Mines `n` blocks on one chain (tests; the timers do it otherwise). */
  mine(chain: ChainId, n = 1): Promise<BlockRef[]> {
    return this.node(chain).mine(n);
  }

  /** Replaces the last `depth` (1–2) blocks of a chain (tests); see SimulatedNode.reorg. */
  reorg(chain: ChainId, depth: number, doubleSpend?: (txid: string) => boolean): Promise<Reorg> {
    return this.node(chain).reorg(depth, doubleSpend);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.stopTimers.splice(0)) stop();
    await Promise.all([...this.nodes.values()].map((node) => node.idle()));
  }
}

function blockOf(row: { height: string | number; hash: string; parent_hash: string; mined_at: string | number }): BlockRef {
  return { height: Number(row.height), hash: row.hash, parentHash: row.parent_hash, time: Number(row.mined_at) };
}

function transferOf(row: {
  txid: string;
  vout: number;
  to_address: string;
  tag: string | null;
  asset: string;
  contract: string | null;
  amount: string;
}): ChainTransfer {
  return { txid: row.txid, index: row.vout, toAddress: row.to_address, tag: row.tag, asset: row.asset, contract: row.contract, amount: row.amount };
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Bitcoin's base58 (Solana's hashes and signatures). */
function base58(bytes: Buffer): string {
  let n = BigInt("0x" + (bytes.toString("hex") || "0"));
  let out = "";
  while (n > 0n) {
    out = BASE58[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = "1" + out;
  }
  return out;
}
