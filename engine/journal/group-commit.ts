import { sql, type Kysely } from "kysely";
import type { Database } from "../store/schema";

/**
 * A change to commit: the SQL statements it adds to its batch's script (none: it only waits for
 * the batch, as a barrier). Asked once, when its batch is written.
 */
export type Change = () => string[];

/** Runs once per batch, once it is durable (publishing what the batch did). */
export interface BatchHooks {
  afterCommit?: (batch: number) => void;
}

/**
 * Group commit (ARCHITECTURE "Order flow and durability"): commands append their changes; one
 * transaction commits every change that arrived since the last commit, and only then are their
 * callers answered. A failed commit means the in-memory state is ahead of the database: the
 * engine must stop (`onFatal`) rather than serve what the database does not have.
 *
 * A batch is one script sent in one round trip (`runScript`): the statements of a simple query
 * run as one implicit transaction, all or nothing, so a commit costs one write to the database
 * and one answer instead of three (begin, statements, commit). On two cores shared with the
 * database each write wakes another process: the profile of the order bench had a quarter of
 * the engine's time in socket writes.
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
      const script: string[] = [];
      for (const item of batch) for (const statement of item.change()) script.push(statement);
      if (script.length) await runScript(this.db, script);
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

/**
 * Runs statements as one script in one round trip: a simple query of several statements is one
 * implicit transaction in Postgres (and in PGlite, which runs the same protocol), so either all
 * of them are committed or none (group-commit.test.ts proves it on both stores). The statements
 * carry their values as literals (sql-script.ts), no parameters.
 */
export async function runScript(db: Kysely<Database>, statements: readonly string[]): Promise<void> {
  if (!statements.length) return;
  await sql.raw(statements.join(";\n")).execute(db);
}
