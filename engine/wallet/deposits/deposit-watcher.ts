import type { Kysely, Transaction } from "kysely";
import { fromMinor, toMinor } from "../../../protocol/money";
import type { ChainBlock, ChainGateway, ChainId, ChainNode, ChainTransfer } from "../../chain/chain-gateway";
import { toChecksumAddress } from "../../core/wallet/address-formats";
import type { DurableCore } from "../../journal/durable-core";
import type { Database, WalletDepositTable } from "../../store/schema";

export type DepositState = WalletDepositTable["state"];

/** The id of a deposit row and of the ledger's credit for it: one per (chain, txid, output). */
export function depositId(chain: ChainId, txid: string, index: number): string {
  return `chain:${chain}:${txid}:${index}`;
}

/** How many blocks a first pass on a chain looks back from the tip (the watcher's start on a chain). */
export const FIRST_LOOK_BACK = 1_000;
/** Blocks whose hashes are kept per chain for walking back after a re-org. */
export const KEEP_BLOCK_HASHES = 1_000;

export interface DepositWatcherOptions {
  /** The durable layer: `funds.deposit` credits, and its database holds the watcher's tables. */
  durable: DurableCore;
  gateway: ChainGateway;
  now?: () => number;
  warn?: (message: string) => void;
  /** Most blocks read per chain in one pass (default 500); the rest comes in the next passes. */
  blocksPerPass?: number;
}

/** What one pass did, per chain (for tests and the log). */
export interface PassReport {
  chain: ChainId;
  read: number;
  /** Height of the common ancestor after a re-org, or null when there was none. */
  reorgTo: number | null;
  recorded: number;
  credited: string[];
}

interface Mark {
  height: number;
  hash: string;
}

/**
 * The deposit watcher (decision 027): per chain it reads the blocks after its stored bookmark,
 * records every transfer to a member's deposit address, counts confirmations, and credits a
 * deposit once it has its network's confirmations, through `Funds.deposit` with the deposit's own
 * id: that id is the guard that makes the credit exactly once, across passes, duplicate reports
 * and restarts (also a crash between the credit and the row's update). A re-org is found by the
 * blocks' hashes; deposits of orphaned blocks not yet credited become `dropped` until a block holds
 * them again. One pass at a time; `start` runs passes on a timer.
 */
export class DepositWatcher {
  private tail: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly blocksPerPass: number;

  constructor(private readonly options: DepositWatcherOptions) {
    this.now = options.now ?? Date.now;
    this.warn = options.warn ?? ((message) => console.warn(message));
    this.blocksPerPass = options.blocksPerPass ?? 500;
  }

  private get db(): Kysely<Database> {
    return this.options.durable.db;
  }

  /** One pass over every chain; a pass called while one runs starts after it. A chain that fails is warned about and the others go on. */
  pass(): Promise<PassReport[]> {
    const run = this.tail.then(async () => {
      const reports: PassReport[] = [];
      for (const chain of this.options.gateway.chains) {
        try {
          reports.push(await this.watch(chain));
        } catch (error) {
          this.warn(`[deposits] ${chain}: the pass failed: ${(error as Error).message}`);
        }
      }
      return reports;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Passes every `intervalMs`, never two at once (a slow pass delays the next). */
  start(intervalMs: number): void {
    if (this.timer) return;
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.pass().finally(() => {
          if (this.timer) tick();
        });
      }, intervalMs);
      this.timer.unref();
    };
    tick();
  }

  /** Stops the timer and waits for a running pass. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.tail;
  }

  private async watch(chain: ChainId): Promise<PassReport> {
    const node = this.options.gateway.node(chain);
    const report: PassReport = { chain, read: 0, reorgTo: null, recorded: 0, credited: [] };
    let mark = await this.bookmark(chain);
    if (mark) {
      const there = await node.blockAt(mark.height);
      if (!there || there.hash !== mark.hash) {
        mark = await this.rewind(chain, node, mark);
        report.reorgTo = mark?.height ?? -1;
      }
    }
    let from = mark ? mark.height + 1 : Math.max(0, (await node.tip()).height - FIRST_LOOK_BACK);
    while (report.read < this.blocksPerPass) {
      const blocks = await node.blocksFrom(from, Math.min(100, this.blocksPerPass - report.read));
      if (blocks.length === 0) break;
      // Only blocks that continue what was read: a parent that differs is a re-org under our feet,
      // which the next pass finds at its start.
      const linked: ChainBlock[] = [];
      let previous: Mark | null = mark;
      for (const block of blocks) {
        if (previous && (block.height !== previous.height + 1 || block.parentHash !== previous.hash)) break;
        linked.push(block);
        previous = block;
      }
      if (linked.length === 0) break;
      report.recorded += await this.record(chain, node, linked);
      mark = linked[linked.length - 1]!;
      from = mark.height + 1;
      report.read += linked.length;
      if (linked.length < blocks.length) break;
    }
    if (mark) report.credited = await this.confirm(chain, node, mark);
    return report;
  }

  private async bookmark(chain: ChainId): Promise<Mark | null> {
    const row = await this.db.selectFrom("deposit_watch").select(["height", "hash"]).where("chain", "=", chain).executeTakeFirst();
    return row ? { height: Number(row.height), hash: row.hash } : null;
  }

  /**
   * The bookmark's block is no longer the node's: walks back through the blocks read until one is
   * still on the main chain, and takes back what was seen above it (not yet credited → dropped).
   */
  private async rewind(chain: ChainId, node: ChainNode, mark: Mark): Promise<Mark | null> {
    const read = await this.db
      .selectFrom("deposit_watch_block")
      .select(["height", "hash"])
      .where("chain", "=", chain)
      .where("height", "<=", String(mark.height))
      .orderBy("height", "desc")
      .execute();
    let ancestor: Mark | null = null;
    for (const row of read) {
      const block = await node.blockAt(Number(row.height));
      if (block && block.hash === row.hash) {
        ancestor = { height: Number(row.height), hash: row.hash };
        break;
      }
    }
    // Deeper than every kept hash (a re-org of over KEEP_BLOCK_HASHES blocks): start again below them.
    const above = ancestor?.height ?? (read.length ? Number(read[read.length - 1]!.height) - 1 : mark.height - 1);
    if (!ancestor) this.warn(`[deposits] ${chain}: re-org deeper than the ${read.length} blocks kept; reading again from ${above + 1}`);
    const now = new Date(this.now());
    await this.db.transaction().execute(async (trx) => {
      const credited = await trx
        .selectFrom("wallet_deposit")
        .select("id")
        .where("chain", "=", chain)
        .where("state", "=", "credited")
        .where("block_height", ">", String(above))
        .execute();
      for (const row of credited) {
        this.warn(`[deposits] ${chain}: credited deposit ${row.id} was in an orphaned block (a re-org deeper than its confirmations): check it by hand`);
      }
      await trx
        .updateTable("wallet_deposit")
        .set({ state: "dropped", block_height: null, block_hash: null, confirmations: 0, updated_at: now })
        .where("chain", "=", chain)
        .where("state", "!=", "credited")
        .where("block_height", ">", String(above))
        .execute();
      await trx.deleteFrom("deposit_watch_block").where("chain", "=", chain).where("height", ">", String(above)).execute();
      if (ancestor) await this.setBookmark(trx, chain, ancestor, now);
      else await trx.deleteFrom("deposit_watch").where("chain", "=", chain).execute();
    });
    return ancestor ?? (above >= 0 ? await this.markAt(node, above) : null);
  }

  private async markAt(node: ChainNode, height: number): Promise<Mark | null> {
    const block = await node.blockAt(height);
    return block ? { height: block.height, hash: block.hash } : null;
  }

  /** Records the transfers of linked blocks to members' addresses, the blocks' hashes and the new bookmark, in one transaction. */
  private async record(chain: ChainId, node: ChainNode, blocks: ChainBlock[]): Promise<number> {
    const networks = [...node.networks];
    const transfers = blocks.flatMap((block) => block.transfers.map((transfer) => ({ block, transfer, address: normalAddress(chain, transfer.toAddress) })));
    const rows = new Map<string, DepositRow>();
    if (transfers.length > 0) {
      const owners = await this.db
        .selectFrom("deposit_address")
        .select(["network", "address", "tag", "member_id"])
        .where("network", "in", networks)
        .where("address", "in", [...new Set(transfers.map((t) => t.address))])
        .execute();
      const ownerOf = new Map(owners.map((o) => [`${o.address}|${o.tag ?? ""}`, o]));
      const rules = owners.length
        ? await this.db
            .selectFrom("coin_network")
            .select(["coin", "network", "chain", "contract", "confirmations", "min_deposit", "deposit_enabled"])
            .where("network", "in", networks)
            .execute()
        : [];
      const now = new Date(this.now());
      for (const { block, transfer, address } of transfers) {
        const owner = ownerOf.get(`${address}|${transfer.tag ?? ""}`);
        if (!owner) continue; // not a member's address (or an XRP payment without its member's tag)
        const rule = rules.find(
          (r) => r.coin === transfer.asset && r.network === owner.network && r.chain === chain && sameContract(r.contract, transfer.contract),
        );
        const id = depositId(chain, transfer.txid, transfer.index);
        rows.set(id, {
          id,
          chain,
          network: owner.network,
          member_id: owner.member_id,
          coin: transfer.asset,
          address: transfer.toAddress,
          tag: transfer.tag,
          amount: transfer.amount,
          txid: transfer.txid,
          vout: transfer.index,
          block_height: String(block.height),
          block_hash: block.hash,
          confirmations: 0,
          required: rule?.confirmations ?? null,
          state: this.stateOf(transfer, rule),
          created_at: now,
          updated_at: now,
        });
      }
    }
    const last = blocks[blocks.length - 1]!;
    await this.db.transaction().execute(async (trx) => {
      if (rows.size > 0) {
        await trx
          .insertInto("wallet_deposit")
          .values([...rows.values()])
          // Seen again (a duplicate report, or back in a block after a re-org): its block and state
          // as now; a credited one is never touched again.
          .onConflict((oc) =>
            oc
              .column("id")
              .doUpdateSet((eb) => ({
                block_height: eb.ref("excluded.block_height"),
                block_hash: eb.ref("excluded.block_hash"),
                required: eb.ref("excluded.required"),
                state: eb.ref("excluded.state"),
                confirmations: 0,
                updated_at: eb.ref("excluded.updated_at"),
              }))
              .where("wallet_deposit.state", "!=", "credited"),
          )
          .execute();
      }
      await trx
        .insertInto("deposit_watch_block")
        .values(blocks.map((b) => ({ chain, height: String(b.height), hash: b.hash })))
        .onConflict((oc) => oc.columns(["chain", "height"]).doUpdateSet((eb) => ({ hash: eb.ref("excluded.hash") })))
        .execute();
      await trx
        .deleteFrom("deposit_watch_block")
        .where("chain", "=", chain)
        .where("height", "<=", String(last.height - KEEP_BLOCK_HASHES))
        .execute();
      await this.setBookmark(trx, chain, last, new Date(this.now()));
    });
    return rows.size;
  }

  private stateOf(transfer: ChainTransfer, rule: { coin: string; min_deposit: string; deposit_enabled: boolean } | undefined): DepositState {
    if (!rule || !rule.deposit_enabled) return "unsupported";
    let scale: number;
    try {
      scale = this.options.durable.scaleOf(rule.coin);
    } catch {
      return "unsupported"; // carried on the network but not an asset of the ledger
    }
    if (toMinor(transfer.amount, 18, "down") < toMinor(trimmed(rule.min_deposit), 18, "down")) return "below_minimum";
    if (toMinor(transfer.amount, scale, "down") === 0n) return "below_minimum";
    return "confirming";
  }

  private async setBookmark(trx: Transaction<Database>, chain: ChainId, mark: Mark, now: Date): Promise<void> {
    await trx
      .insertInto("deposit_watch")
      .values({ chain, height: String(mark.height), hash: mark.hash, updated_at: now })
      .onConflict((oc) => oc.column("chain").doUpdateSet({ height: String(mark.height), hash: mark.hash, updated_at: now }))
      .execute();
  }

  /**
   * Confirmations of the chain's confirming deposits, counted up to the last block read (blocks
   * linked to it by their hashes); each that has its network's number, and that the node still
   * places in the same block, is credited.
   */
  private async confirm(chain: ChainId, node: ChainNode, mark: Mark): Promise<string[]> {
    const open = await this.db
      .selectFrom("wallet_deposit")
      .select(["id", "member_id", "coin", "network", "amount", "txid", "block_height", "block_hash", "confirmations", "required"])
      .where("chain", "=", chain)
      .where("state", "=", "confirming")
      .execute();
    const credited: string[] = [];
    const funds = this.options.durable.funds;
    for (const row of open) {
      if (row.block_height === null || row.required === null) continue;
      const confirmations = Math.max(0, mark.height - Number(row.block_height) + 1);
      if (confirmations < row.required) {
        if (confirmations !== row.confirmations) {
          await this.db
            .updateTable("wallet_deposit")
            .set({ confirmations, updated_at: new Date(this.now()) })
            .where("id", "=", row.id)
            .where("state", "=", "confirming")
            .execute();
        }
        continue;
      }
      // The node's own word before money moves: the transaction is still in that block.
      const status = await node.status(row.txid);
      if (status.state !== "confirmed" || status.block?.hash !== row.block_hash) continue;
      const amount = fromMinor(toMinor(trimmed(row.amount), this.options.durable.scaleOf(row.coin), "down"), this.options.durable.scaleOf(row.coin));
      const fresh = await funds.deposit(row.member_id, row.coin, "funding", amount, row.id, { network: row.network, txid: row.txid });
      // False: credited before (a crash between the credit and this row's update, or a duplicate)
      // — or refused, which the ledger's rows tell apart.
      if (!fresh && !(await this.inLedger(row.id))) {
        this.warn(`[deposits] ${chain}: the credit of ${row.id} was refused; tried again next pass`);
        continue;
      }
      const now = new Date(this.now());
      await this.db
        .updateTable("wallet_deposit")
        .set({ state: "credited", confirmations, credited_at: now, updated_at: now })
        .where("id", "=", row.id)
        .where("state", "=", "confirming")
        .execute();
      if (fresh) credited.push(row.id);
    }
    return credited;
  }

  private async inLedger(id: string): Promise<boolean> {
    await this.options.durable.projectedAll();
    return (await this.db.selectFrom("ledger_transfer").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
  }
}

type DepositRow = Omit<WalletDepositTable, "seq" | "credited_at" | "created_at" | "updated_at"> & { created_at: Date; updated_at: Date };

/** A NUMERIC's text without trailing zeros. */
function trimmed(value: string): string {
  return value.includes(".") ? value.replace(/\.?0+$/, "") : value;
}

/** Addresses as `deposit_address` stores them: EVM ones EIP-55 checksummed (a node may answer lower case). */
function normalAddress(chain: ChainId, address: string): string {
  return chain === "ethereum" && /^0x[0-9a-fA-F]{40}$/.test(address) ? toChecksumAddress(address) : address;
}

/** A token is told apart by its contract; EVM contracts compare without case. */
function sameContract(configured: string | null, seen: string | null): boolean {
  if (configured === null || seen === null) return configured === seen;
  return configured.toLowerCase() === seen.toLowerCase();
}
