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
 * Whether this engine may write the journal now: it holds the one-engine lock (engine-lock.ts).
 * `whenHeld` answers null while it does; while the lock is being taken again (its connection
 * dropped, another engine could take it meanwhile) a promise that resolves once it is held again,
 * and never if another engine took it (the lock then stops the engine).
 */
export interface CommitGate {
  whenHeld(): Promise<void> | null;
}

/** How long a batch waits for the engine lock to be held again before the engine stops (`onFatal`). */
export const GATE_WAIT_MS = 30_000;

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
    /** The engine lock: no batch is written while it is not held (none: always written). */
    private readonly gate?: CommitGate,
    private readonly gateWaitMs = GATE_WAIT_MS,
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
    // Not while the engine lock is being taken again: another engine may hold it by now, and two
    // engines must never write one journal. The batch (and what arrives meanwhile) waits unanswered;
    // once the lock is held again it is written. If another engine took it, the lock stops this
    // engine (exit 75) and these callers are never answered; if it cannot be taken again in time
    // (the server down), the engine stops as on a failed commit.
    const closed = this.gate?.whenHeld();
    if (closed) {
      try {
        await waitAtMost(closed, this.gateWaitMs, `the engine lock was not held again within ${this.gateWaitMs / 1000} s`);
      } catch (error) {
        this.queue = [];
        this.onFatal(error);
        return; // callers are never answered: the engine is stopping
      }
    }
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

/** `promise`, or a rejection with `message` once `ms` have passed first. */
async function waitAtMost(promise: Promise<void>, ms: number, message: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
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
