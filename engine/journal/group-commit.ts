import type { Kysely, Transaction } from "kysely";
import type { Database } from "../store/schema";

export type Change = (trx: Transaction<Database>) => Promise<void>;

/** Runs once per batch: `beforeCommit` inside its transaction (after its changes), `afterCommit` once it is durable. */
export interface BatchHooks {
  beforeCommit?: (trx: Transaction<Database>, batch: number) => Promise<void>;
  afterCommit?: (batch: number) => void;
}

/**
 * Group commit (ARCHITECTURE "Order flow and durability"): commands append their changes; one
 * transaction commits every change that arrived since the last commit, and only then are their
 * callers answered. A failed commit means the in-memory state is ahead of the database: the
 * engine must stop (`onFatal`) rather than serve what the database does not have.
 */
export class GroupCommitter {
  private queue: Array<{ change: Change; resolve: () => void }> = [];
  private flushing: Promise<void> | null = null;
  private scheduled = false;
  /** Batches committed and their sizes (for benchmarks). */
  readonly stats = { commits: 0, changes: 0 };
  /** Number of the batch now collecting changes; a change queued now commits with it. */
  private collecting = 1;
  private readonly hooks: BatchHooks[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onFatal: (error: unknown) => void,
  ) {}

  /** The batch a change queued now will commit with (to publish what it did after that batch). */
  get currentBatch(): number {
    return this.collecting;
  }

  addHooks(hooks: BatchHooks): void {
    this.hooks.push(hooks);
  }

  /** Resolves once `change` is committed. */
  commit(change: Change): Promise<void> {
    return new Promise<void>((resolve) => {
      this.queue.push({ change, resolve });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flushing = this.flush().finally(() => {
        this.flushing = null;
        if (this.queue.length) this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    if (!batch.length) return;
    const number = this.collecting++;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) await item.change(trx);
        for (const hook of this.hooks) await hook.beforeCommit?.(trx, number);
      });
    } catch (error) {
      this.onFatal(error);
      return; // callers are never answered: the engine is stopping
    }
    this.stats.commits++;
    this.stats.changes += batch.length;
    for (const item of batch) item.resolve();
    for (const hook of this.hooks) {
      try {
        hook.afterCommit?.(number);
      } catch (error) {
        console.error("a post-commit hook failed (the commit stands)", error);
      }
    }
  }

  /** Waits until everything queued so far is committed. */
  async drain(): Promise<void> {
    while (this.queue.length || this.flushing || this.scheduled) {
      await (this.flushing ?? new Promise((r) => setImmediate(r)));
    }
  }
}
