import type { Kysely } from "kysely";
import { runScript } from "./group-commit";
import type { Database } from "../store/schema";

/** What the projector writes: one group-commit batch's query-table rows, after its journal rows commit. */
export interface ProjectionBatch {
  /** Sequence number of the batch's last accepted command. */
  readonly lastSeq: number;
  /** When that command was applied (ms): the projection's lag is measured from here. */
  readonly appliedAt: number;
  /** Accepted commands in the batch (to bound one transaction's size). */
  readonly size: number;
  projectionStatements(): string[];
  /**
   * A new, empty batch into which this one and the ones after it can be merged (`absorb`), to
   * write them as one; the batches merged stay as they were (a write that fails is not retried
   * from half-merged batches).
   */
  emptyCopy(): ProjectionBatch;
  /** Takes in the next batch, to write both as one (false, and nothing changed: written one after the other). */
  absorb(later: ProjectionBatch): boolean;
}

/** Commands written per projection transaction at most (a start's long tail is written in steps). */
const MAX_COMMANDS_PER_WRITE = 20_000;
/** Recent batch lags kept for the p99 on /healthz. */
const LAG_WINDOW = 2_000;

/**
 * Writes the query tables (orders, trades, ledger transfers, balances, holds) behind the answer
 * (decision 017, step 3). A batch is handed over once its journal rows are committed; whatever
 * has arrived meanwhile is written in one transaction with the cursor (`projection_cursor`, the
 * last command the tables include), so the tables always show the state after one command. A
 * start resumes from the cursor by replaying the journal after it (DurableCore.start).
 *
 * A failed write stops the engine (`onFatal`) like a failed journal commit: the journal holds
 * every acknowledged command, so the next start writes what is missing.
 */
export class Projector {
  private queue: ProjectionBatch[] = [];
  private projected: number;
  private queuedSeq: number;
  private flushing: Promise<void> | null = null;
  private scheduled = false;
  private paused = false;
  /** A write failed: nothing more is written, and nobody waits for it. */
  private failed = false;
  private waiters: Array<{ seq: number; resolve: (reached: boolean) => void }> = [];
  private readonly lags: number[] = [];
  private lagIndex = 0;
  /** Transactions written, and batches written within another's statements (merged). */
  readonly stats = { writes: 0, merged: 0 };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly name: string,
    cursor: number,
    private readonly onFatal: (error: unknown) => void,
    private readonly onProjected: (cursor: number) => void = () => {},
  ) {
    this.projected = cursor;
    this.queuedSeq = cursor;
  }

  /** The cursor stored for `name` (an install without one has its tables written with the journal). */
  static async cursorOf(db: Kysely<Database>, name: string): Promise<number | null> {
    const row = await db.selectFrom("projection_cursor").select("seq").where("name", "=", name).executeTakeFirst();
    return row ? Number(row.seq) : null;
  }

  /** The last command the tables include. */
  get cursor(): number {
    return this.projected;
  }

  /** Hands over a batch whose journal rows are committed. */
  enqueue(batch: ProjectionBatch): void {
    if (batch.lastSeq <= this.queuedSeq) return;
    this.queuedSeq = batch.lastSeq;
    this.queue.push(batch);
    this.schedule();
  }

  /** Resolves once the tables include command `seq`; false when `timeoutMs` passed first. */
  reach(seq: number, timeoutMs?: number): Promise<boolean> {
    if (seq <= this.projected) return Promise.resolve(true);
    if (this.failed) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter = {
        seq,
        resolve: (reached: boolean) => {
          if (timer) clearTimeout(timer);
          resolve(reached);
        },
      };
      const timer =
        timeoutMs === undefined
          ? null
          : setTimeout(() => {
              this.waiters = this.waiters.filter((w) => w !== waiter);
              resolve(false);
            }, timeoutMs);
      timer?.unref();
      this.waiters.push(waiter);
    });
  }

  /** How far behind the tables are: commands not yet written, the oldest one's age, and the p99 of recent batches (ms). */
  lag(now = Date.now()): { cursor: number; behind: number; oldestMs: number; p99Ms: number } {
    const oldest = this.queue[0];
    const sorted = this.lags.slice().sort((a, b) => a - b);
    const p99 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]! : 0;
    return { cursor: this.projected, behind: this.queuedSeq - this.projected, oldestMs: oldest ? Math.max(0, now - oldest.appliedAt) : 0, p99Ms: p99 };
  }

  /** Tests only: hold the writes back (as if the engine died before them), or let them go again. */
  async pause(paused: boolean): Promise<void> {
    this.paused = paused;
    if (!paused) this.schedule();
    else await this.flushing; // a write under way finishes
  }

  /** Waits until every batch handed over so far is written. */
  async drain(): Promise<void> {
    while (this.queue.length || this.flushing || this.scheduled) {
      if (this.paused && !this.flushing) return;
      await (this.flushing ?? new Promise((r) => setImmediate(r)));
    }
  }

  private schedule(): void {
    if (this.scheduled || this.flushing || this.paused || this.failed || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flushing = this.flush().finally(() => {
        this.flushing = null;
        this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    let commands = 0;
    let taken = 0;
    while (taken < this.queue.length && (taken === 0 || commands + this.queue[taken]!.size <= MAX_COMMANDS_PER_WRITE)) commands += this.queue[taken++]!.size;
    const batches = this.queue.slice(0, taken);
    const seq = batches[batches.length - 1]!.lastSeq;
    try {
      // The batches of one write merged where their rows allow: one statement per table, not per batch.
      const merged = mergeBatches(batches);
      this.stats.merged += batches.length - merged.length;
      // The commit need not wait for its WAL to reach the disk: the cursor commits with the rows, so
      // a crash that loses this transaction loses the cursor's move too, and the next start writes
      // the same rows again from the journal (committed synchronously before any answer).
      const script = ["set local synchronous_commit = off", ...merged.flatMap((b) => b.projectionStatements())];
      script.push(`insert into projection_cursor (name, seq) values ('${this.name}', ${seq}) on conflict (name) do update set seq = excluded.seq`);
      // One round trip, one implicit transaction: the rows and the cursor, or neither.
      await runScript(this.db, script);
    } catch (error) {
      this.paused = true; // nothing more is written: the engine is stopping
      this.failed = true;
      for (const w of this.waiters.splice(0)) w.resolve(false);
      this.onFatal(error);
      return;
    }
    this.queue = this.queue.slice(taken);
    this.projected = seq;
    this.stats.writes++;
    const now = Date.now();
    for (const b of batches) {
      this.lags[this.lagIndex] = now - b.appliedAt;
      this.lagIndex = (this.lagIndex + 1) % LAG_WINDOW;
    }
    this.onProjected(seq);
    if (this.waiters.length) {
      const ready = this.waiters.filter((w) => w.seq <= seq);
      this.waiters = this.waiters.filter((w) => w.seq > seq);
      for (const w of ready) w.resolve(true);
    }
  }
}

/**
 * Batches in order, each run of mergeable ones as one new batch (decision 017, step 18); a batch
 * with nothing to merge is written as it is (no copy), and the batches given are not changed.
 */
function mergeBatches(batches: readonly ProjectionBatch[]): ProjectionBatch[] {
  const out: ProjectionBatch[] = [];
  /** The batch made here that the next ones are merged into (the last of `out`), if any. */
  let open: ProjectionBatch | null = null;
  for (const b of batches) {
    if (open?.absorb(b)) continue;
    const last = out[out.length - 1];
    if (last && !open) {
      const fresh = last.emptyCopy();
      if (fresh.absorb(last) && fresh.absorb(b)) {
        out[out.length - 1] = open = fresh;
        continue;
      }
    }
    out.push(b);
    open = null;
  }
  return out;
}
