import type { Kysely, Transaction } from "kysely";
import type { Database } from "../store/schema";

export type Change = (trx: Transaction<Database>) => Promise<void>;

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

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onFatal: (error: unknown) => void,
  ) {}

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
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) await item.change(trx);
      });
    } catch (error) {
      this.onFatal(error);
      return; // callers are never answered: the engine is stopping
    }
    this.stats.commits++;
    this.stats.changes += batch.length;
    for (const item of batch) item.resolve();
  }

  /** Waits until everything queued so far is committed. */
  async drain(): Promise<void> {
    while (this.queue.length || this.flushing || this.scheduled) {
      await (this.flushing ?? new Promise((r) => setImmediate(r)));
    }
  }
}
