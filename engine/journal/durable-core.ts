import { auditRowForBatch, type AuditInsert } from "../operators/audit";
import { sql, type Insertable, type Kysely } from "kysely";
import type { Command } from "../core/exchange/commands";
import { ExchangeCore, type OutcomeOf } from "../core/exchange/exchange-core";
import { BatchedLookup } from "../store/batched-lookup";
import type { Database, IdempotencyKeyTable } from "../store/schema";
import { CommandBatch } from "./command-batch";
import { Funds } from "./funds";
import { GroupCommitter, type BatchHooks, type CommitGate } from "./group-commit";
import { InFlightRequests } from "./idempotency";
import { KEPT_ANSWERS_CAP, KEY_WINDOW_MS, KeptAnswers, type KeptAnswer } from "./kept-answers";
import { KEY_ROWS } from "./key-rows";
import { writeSnapshotFile, type PrefetchedSnapshot, type SnapshotSource } from "./snapshot-prefetch";
import {
  eachJournalCommand,
  eachJournalPage,
  lastJournalSeq,
  pruneJournal,
  restoreNewestSnapshot,
  restoreOfferAhead,
  saveSnapshot,
  snapshotOf,
  type SnapshotOffer,
  type SnapshotText,
} from "./journal";
import { buildSnapshotOffThread } from "./snapshot-builder";
import { LEDGER_ROWS } from "./ledger-rows";
import type { Accepted, AppliedCommand, Product, ProjectionContext } from "./product";
import { Projector } from "./projector";

export interface DurableCoreOptions {
  db: Kysely<Database>;
  onFatal: (error: unknown) => void;
  /** The areas besides funds (the ledger's own product, which the layer plugs in first) whose commands and tables this engine runs. */
  products: Product[];
  now?: () => number;
  /** Start from a stored snapshot when there is a good one (default true). */
  snapshots?: boolean;
  /**
   * The newest snapshot, perhaps already read on another thread (snapshot-prefetch.ts) and restored
   * while the store opened (`DurableCore.restoreAhead`, which bounds the wait for the reader): used
   * only if it is the newest stored one's. The start awaits it.
   */
  prefetchedSnapshot?: Promise<SnapshotOffer | null>;
  /** Keep a copy of each stored snapshot in this file (an embedded database's data folder), for the next start's prefetch. */
  snapshotFile?: string;
  /**
   * Where the periodic snapshot's worker reads the last stored snapshot itself (decision 017, step
   * 19): `{ databaseUrl }` on Postgres. Default: the `snapshotFile` copy, if kept; without either,
   * the engine reads the row and hands its text over.
   */
  snapshotSource?: SnapshotSource;
  warn?: (message: string) => void;
  /**
   * The engine lock (engine/store/engine-lock.ts): while it is being taken again after its
   * connection dropped, no journal batch is written (its commands wait unanswered). None: always.
   */
  commitGate?: CommitGate;
  /** Idempotency keys answered from memory: their window and how many are held at most (tests). */
  keptAnswers?: { windowMs?: number; cap?: number };
}

/** A member's request that is run once per key (ARCHITECTURE.md, "Order flow and durability"). */
export interface IdempotentRequest {
  memberId: string;
  key: string;
  /** The request's fields (requestFingerprint): the key with other fields is refused as reused. */
  fingerprint: string;
}

/** What an accepted command's journal row keeps of the key it was asked with (`kept`, as JSON). */
interface JournalKept {
  memberId: string;
  key: string;
  fingerprint: string;
  /** The first answer, as JSON. */
  response: string;
}

/** A kept key's `idempotency_key` row. */
function keyRow(kept: JournalKept, createdAt: string): Insertable<IdempotencyKeyTable> {
  return { member_id: kept.memberId, key: kept.key, response: kept.response, fingerprint: kept.fingerprint, created_at: createdAt };
}

/** The prefix of the settlement ids the core makes (see `DurableCore.idPrefix`). */
const CORE_ID_PREFIX = "s";

/**
 * The product-neutral durable layer (decision 017): the one deterministic core every area's
 * commands go through, and everything that makes it durable.
 *
 * - `execute` applies a command (one writer: the event loop), appends an accepted one to the
 *   journal with its sequence number, and answers once that batch is committed (group commit);
 * - `once` runs a member's request once per idempotency key, keeping the first answer in the
 *   journal's batch;
 * - the query tables are projected behind the answer (each product's `project`, the projector);
 * - `start` restores the core from the newest good snapshot and the journal after it, or from the
 *   tables; `writeSnapshot` stores one and prunes the journal no kept snapshot needs.
 *
 * The ledger's own operations (transfers between a member's accounts, deposits) are `funds`.
 */
export class DurableCore {
  /**
   * Settlement ids are `s<seq>.<n>`: the sequence is durable (journal, snapshots, projection
   * cursor), so a replay makes the ids the live engine made. (Ids from before the journal carry a
   * per-process prefix with a dash; outside ids carry a colon or a dash.)
   */
  private readonly idPrefix = CORE_ID_PREFIX;
  /** The deterministic core (replaced once, at start, by a snapshot's). */
  private state = new ExchangeCore(this.idPrefix);
  /** Where the start found the state: a snapshot and how many journal commands after it, or the tables. */
  restoredFrom: { source: "snapshot" | "tables"; seq: number; replayed: number } = { source: "tables", seq: 0, replayed: 0 };
  /** The sequence of the newest stored snapshot (-1: none stored by this process nor loaded at start). */
  private lastSnapshotSeq = -1;
  /**
   * The start rebuilt state the journal does not fully describe (from the tables, past a damaged
   * snapshot, or with markets listed by hand while stopped): write a snapshot before serving.
   */
  needsSnapshot = false;
  /** The ledger's operations (and its projection). */
  readonly funds: Funds;
  private readonly products: Product[];
  /** The product that owns each command type. */
  private readonly owners = new Map<Command["type"], Product>();
  /** The products that follow each command type besides its owner (`Product.follows`). */
  private readonly followers = new Map<Command["type"], Product[]>();
  private readonly committer: GroupCommitter;
  /** First answers by `member:key` in the keys' window, answered from memory. */
  private readonly kept: KeptAnswers;
  /** How long a key is answered for (ms). */
  private readonly keyWindowMs: number;
  /** How many keys memory holds at most (and the start loads). */
  private readonly keyCap: number;
  /** Keys asked of the table (memory could not vouch for a miss): for tests and the bench. */
  keyTableLookups = 0;
  /**
   * First answers by `member:key` from the table, for a key memory may have let go: looked up
   * for all the requests of one event-loop turn at once.
   */
  private readonly answers: BatchedLookup<{ response: string; fingerprint: string | null }>;
  private readonly inFlight = new InFlightRequests<unknown>();
  /** The start's load of the recent keys into memory (misses are asked of the table until it is done). */
  private keptLoading: Promise<void> = Promise.resolve();
  /** The rows of each group-commit batch not yet committed, by batch number. */
  private readonly batches = new Map<number, CommandBatch>();
  /** Writes the query tables behind the answer (created at start, at the stored cursor). */
  private projector!: Projector;
  /** The last command that touched each member's rows: their history waits until the tables include it. */
  private readonly memberSeq = new Map<string, number>();
  private memberSweepAt = 1_000;
  private readonly eventListeners: Array<(applied: AppliedCommand) => void> = [];

  get core(): ExchangeCore {
    return this.state;
  }

  get ledger() {
    return this.state.ledger;
  }

  get db(): Kysely<Database> {
    return this.options.db;
  }

  private constructor(private readonly options: DurableCoreOptions) {
    this.funds = new Funds(this);
    this.products = [this.funds, ...options.products];
    for (const product of this.products) {
      for (const type of product.commands) {
        const owner = this.owners.get(type);
        if (owner) throw new Error(`${product.name} and ${owner.name} both own ${type}`);
        this.owners.set(type, product);
      }
      for (const type of product.follows ?? []) this.followers.set(type, [...(this.followers.get(type) ?? []), product]);
    }
    this.keyWindowMs = options.keptAnswers?.windowMs ?? KEY_WINDOW_MS;
    this.keyCap = options.keptAnswers?.cap ?? KEPT_ANSWERS_CAP;
    this.kept = new KeptAnswers({ windowMs: this.keyWindowMs, cap: this.keyCap });
    this.committer = new GroupCommitter(options.db, options.onFatal, options.commitGate);
    // Once a batch's journal rows are durable, its table rows go to the projector.
    this.committer.addHooks({
      afterCommit: (batch) => {
        const rows = this.batches.get(batch);
        this.batches.delete(batch);
        if (rows && rows.size) this.projector.enqueue(rows);
      },
    });
    this.answers = new BatchedLookup(async (keys) => {
      const wanted = keys.map((k) => ({ m: k.slice(0, k.indexOf(":")), k: k.slice(k.indexOf(":") + 1) }));
      // A row older than the window answers nothing (it is pruned with the journal).
      const since = new Date(this.now() - this.keyWindowMs).toISOString();
      // A lateral join: one primary-key probe per key, whatever the table's size.
      const rows = await sql<{
        member_id: string;
        key: string;
        response: string;
        fingerprint: string | null;
      }>`select i.member_id, i.key, i.response, i.fingerprint
        from json_to_recordset(${JSON.stringify(wanted)}::json) as v(m bigint, k varchar)
        cross join lateral (select member_id, key, response, fingerprint from idempotency_key where member_id = v.m and key = v.k and created_at > ${since}::timestamptz) i`.execute(
        options.db,
      );
      return new Map(rows.rows.map((r) => [`${r.member_id}:${r.key}`, { response: r.response, fingerprint: r.fingerprint }]));
    });
  }

  /**
   * Restores an offered snapshot ahead of `start` (decision 017, step 17: while the store opens and
   * migrates); `start` takes it only if it is the newest stored snapshot (journal.ts).
   */
  static restoreAhead(prefetched: Promise<PrefetchedSnapshot | null>): Promise<SnapshotOffer | null> {
    return restoreOfferAhead(prefetched, () => new ExchangeCore(CORE_ID_PREFIX));
  }

  /**
   * Restores the core: from the newest good snapshot and the journal after it, or, when there is
   * none (an install older than the journal, or every snapshot damaged), from the tables (assets,
   * then each product's part) and the journal after their cursor.
   */
  static async start(startOptions: DurableCoreOptions): Promise<DurableCore> {
    // The offer is not kept with the options: a core restored ahead and not taken must not live
    // as long as the engine (nor the snapshot's text).
    const { prefetchedSnapshot, ...options } = startOptions;
    const durable = new DurableCore(options);
    const { db } = options;
    const warn = options.warn ?? ((message: string) => console.warn(message));
    // The tables include the journal up to the cursor; an install without one wrote them with it.
    // (One cursor for all the query tables; its row keeps the name it was stored under.)
    const projected = (await Projector.cursorOf(db, "spot")) ?? (await lastJournalSeq(db));
    durable.projector = new Projector(db, "spot", projected, options.onFatal, (cursor) => durable.projectedUpTo(cursor));
    if (options.snapshots !== false) {
      const found = await restoreNewestSnapshot(db, () => new ExchangeCore(durable.idPrefix), warn, prefetchedSnapshot);
      // A snapshot is stored only once the tables include it; one ahead of them cannot be resumed from.
      if (found && found.core.lastSeq > projected) warn(`snapshot ${found.core.lastSeq} is ahead of the tables (${projected}); restoring from the tables`);
      else if (found) {
        const seq = found.core.lastSeq;
        durable.state = found.core;
        try {
          const replayed = await durable.replayJournal(seq, projected);
          durable.lastSnapshotSeq = seq;
          durable.restoredFrom = { source: "snapshot", seq, replayed };
          if (await durable.openConfiguredSince()) durable.needsSnapshot = true;
          if (found.skipped) durable.needsSnapshot = true;
          durable.loadKeptAnswers();
          // The data folder's copy was missing or stale (a first start with it, a crash before it
          // was written): written now, behind the start, for the next one.
          if (!found.offerTaken) void durable.copySnapshotToFile(found.snapshot);
          return durable;
        } catch (error) {
          // Rows this replay already wrote came from the snapshot being given up: the tables are no
          // independent fallback any more. Stop, for an operator to look.
          if (durable.projector.cursor > projected)
            throw new Error(
              `the journal after snapshot ${seq} does not replay (${(error as Error).message}), and the tables were written up to ${durable.projector.cursor} from it`,
            );
          durable.state = new ExchangeCore(durable.idPrefix);
          warn(`the journal after snapshot ${seq} does not replay (${(error as Error).message}); restoring from the tables`);
        }
      }
    }
    // The tables are the state after command `projected`; the journal after it is replayed.
    const cursor = durable.projector.cursor;
    for (const a of await db.selectFrom("asset").selectAll().execute()) durable.core.listAsset(a.code, a.scale);
    for (const product of durable.products) await product.restoreFromTables(durable.core, db);
    durable.core.restoreSeq(cursor);
    const replayed = await durable.replayJournal(cursor, cursor);
    durable.restoredFrom = { source: "tables", seq: cursor, replayed };
    durable.needsSnapshot = true;
    durable.loadKeptAnswers();
    return durable;
  }

  /**
   * Replays the journal after `afterSeq` through the core (each command must take its recorded
   * number again), and writes the table rows of those after `projected` (the tables were behind
   * when the engine stopped) before anything is served. Answers the commands replayed.
   */
  private async replayJournal(afterSeq: number, projected: number): Promise<number> {
    let batch = new CommandBatch();
    const now = this.now();
    const replayed = await eachJournalCommand(this.options.db, afterSeq, (seq, command, at, keptText) => {
      const outcome = this.core.apply(command);
      if (outcome.seq !== seq) throw new Error(`journal command ${seq} replays as ${outcome.seq ?? outcome.code}`);
      // The key it was asked with is known again (its table row is written below if the tables had not caught up).
      const kept = keptText === null ? undefined : (JSON.parse(keptText) as JournalKept);
      if (kept) this.keepAnswer(kept, at.getTime(), seq, now);
      if (seq <= projected) return;
      batch.noteSeq(seq);
      this.project(batch, command, outcome as Accepted, at, at.toISOString(), kept);
      if (batch.size < 5_000) return;
      this.projector.enqueue(batch);
      batch = new CommandBatch();
      return this.projector.drain();
    });
    if (batch.size) this.projector.enqueue(batch);
    await this.projector.drain();
    return replayed;
  }

  /** Assets and product configuration in the tables that the snapshot does not know yet (added by hand while stopped). */
  private async openConfiguredSince(): Promise<boolean> {
    const { db } = this.options;
    let opened = false;
    for (const a of await db.selectFrom("asset").selectAll().execute()) {
      if (this.core.assetScales.has(a.code)) continue;
      this.core.listAsset(a.code, a.scale);
      opened = true;
    }
    for (const product of this.products) if (await product.openConfiguredSince?.(this.core, db)) opened = true;
    return opened;
  }

  /**
   * Applies a command and, when the core accepts it, journals it and answers once it is
   * committed (its table rows follow behind; `waitProjected` ms waits for them too, as operators
   * read back what they changed). A refusal changed nothing and is answered at once, unless
   * `keep` stores the answer for retries with its key.
   */
  async execute<C extends Command>(
    command: C,
    options: {
      keep?: IdempotentRequest & { answer: (outcome: OutcomeOf<C>) => unknown };
      waitProjected?: number;
      /** An operator's command: its audit row, committed with it when the core accepts it (none on a refusal; decision 043). */
      audit?: (outcome: Extract<OutcomeOf<C>, { code: "OK" }>) => AuditInsert;
    } = {},
  ): Promise<OutcomeOf<C>> {
    // Checked before the core applies it: an accepted command nobody projects would be journaled without its rows.
    if (!this.owners.has(command.type)) throw new Error(`no product plugged in owns ${command.type}`);
    const outcome = this.core.apply(command);
    const keep = options.keep;
    if (outcome.code !== "OK" && !keep) return outcome;
    const kept: JournalKept | undefined = keep && {
      memberId: keep.memberId,
      key: keep.key,
      fingerprint: keep.fingerprint,
      response: JSON.stringify(keep.answer(outcome)),
    };
    let batch: CommandBatch;
    if (outcome.code === "OK") {
      // The key rides in the command's journal row; its table row is projected with the command's.
      batch = this.accept(command, outcome as Accepted, kept);
      if (options.audit) batch.insertAudit(auditRowForBatch(options.audit(outcome as Extract<OutcomeOf<C>, { code: "OK" }>)));
    } else {
      // A refusal journals no command: its key's row is written with the journal.
      batch = this.collecting();
      const now = this.now();
      this.keepAnswer(kept!, now, 0, now);
      batch.insertKey(keyRow(kept!, new Date(now).toISOString()));
    }
    await this.committer.commit(() => batch.journalStatements());
    if (outcome.seq !== null && options.waitProjected) await this.projector.reach(outcome.seq, options.waitProjected);
    return outcome;
  }

  /**
   * Runs a member's request once per idempotency key: a duplicate gets the first answer (also
   * while the first still commits, and after a restart); the key with a different request gets
   * `reused()` and nothing is done. `run` answers through `execute` with `keep`.
   */
  once<T>(request: IdempotentRequest, run: () => Promise<T>, reused: () => T): Promise<T> {
    const id = `${request.memberId}:${request.key}`;
    const answer = this.inFlight.run(
      id,
      request.fingerprint,
      async () => {
        const now = this.now();
        // Memory knows every key of the window unless it let some go (then the table is asked).
        const earlier = this.kept.get(id, now) ?? (this.kept.mayHaveLetGo(now) ? await this.lookUpKey(id) : undefined);
        if (earlier === undefined) return run();
        // Old rows have no fingerprint: their first answer stands.
        if (earlier.fingerprint !== null && earlier.fingerprint !== request.fingerprint) return reused();
        return JSON.parse(earlier.response) as T;
      },
      reused,
    );
    return answer as Promise<T>;
  }

  /**
   * Follows the core's event stream: every accepted command's events, in sequence order, told
   * as the command is applied (before its commit: publish what it did after `batch` commits).
   * Market data and the real-time pushes read the exchange from this alone.
   */
  onEvents(listener: (applied: AppliedCommand) => void): void {
    this.eventListeners.push(listener);
  }

  /** Adds per-batch hooks to the group commit (publishing what a batch did once it is durable). */
  addBatchHooks(hooks: BatchHooks): void {
    this.committer.addHooks(hooks);
  }

  /**
   * Stores a snapshot of the core as it is now, once the commands it includes are committed and
   * in the tables, then drops the journal no kept snapshot needs. Nothing to do when no command
   * was accepted since the last one. Answers the snapshot's sequence, or null.
   */
  async writeSnapshot(options: { force?: boolean; dropOlder?: boolean } = {}): Promise<{ seq: number; bytes: number; pruned: number } | null> {
    return this.oneSnapshotAtATime(() => this.snapshotInThread(options));
  }

  /**
   * Stores the next snapshot without stopping the engine (decision 017, step 9): a worker thread
   * restores the newest stored snapshot and replays the journal after it up to the last command
   * the tables include; the event loop only reads the journal and stores the result. Used for
   * the periodic snapshots while the engine serves. Falls back to a snapshot of the live core
   * when there is no stored one to start from or the worker fails (warned). The worker reads the
   * stored snapshot itself where it can (`snapshotSource`; `baseReadBy: "worker"`), else the
   * engine reads the row and hands its text over (`"engine"`). On Postgres the worker also stores
   * the new one on its connection (`storedBy: "worker"`: step 19, no 40 MB text on the event
   * loop either way); otherwise its text comes back and the engine stores it.
   */
  async writeSnapshotBehind(): Promise<{
    seq: number;
    bytes: number;
    pruned: number;
    offThread: boolean;
    baseReadBy?: "worker" | "engine";
    storedBy?: "worker" | "engine";
  } | null> {
    return this.oneSnapshotAtATime(async () => {
      const base = this.lastSnapshotSeq;
      const target = this.projector.cursor;
      if (target <= base) return null;
      const warn = this.options.warn ?? ((message: string) => console.warn(message));
      const stored =
        base < 0 ? undefined : await this.options.db.selectFrom("core_snapshot").select("checksum").where("seq", "=", String(base)).executeTakeFirst();
      if (stored) {
        const job = { baseSeq: base, baseChecksum: stored.checksum, idPrefix: this.idPrefix };
        const pages = (send: (commands: Array<[number, string]>) => void) => eachJournalPage(this.options.db, base, target, send);
        // The worker reads the base itself where it can (decision 017, step 19); the row's text passes through here only when it cannot.
        const source = this.snapshotSource();
        // On a database of its own connection, the worker also stores what it built (when it stands at the target).
        let built = source ? await buildSnapshotOffThread({ ...job, source, storeAt: "databaseUrl" in source ? target : undefined }, pages) : null;
        let baseReadBy: "worker" | "engine" = "worker";
        if (!built || (!built.ok && built.baseUnavailable)) {
          baseReadBy = "engine";
          const row = await this.options.db.selectFrom("core_snapshot").select("data").where("seq", "=", String(base)).executeTakeFirst();
          built = row ? await buildSnapshotOffThread({ ...job, base: row.data }, pages) : { ok: false, error: `snapshot ${base} is gone` };
        }
        if (built.ok && "notStored" in built && built.notStored !== undefined)
          warn(`the snapshot at ${built.seq} was built off the event loop but not stored there (${built.notStored}); storing it here`);
        if (built.ok && built.seq === target)
          return {
            ...(await ("stored" in built ? this.snapshotStored(built) : this.storeSnapshot(built, {}))),
            offThread: true,
            baseReadBy,
            storedBy: "stored" in built ? "worker" : "engine",
          };
        warn(
          `the snapshot at ${target} could not be built off the event loop (${built.ok ? `it stands at ${built.seq}` : built.error}); taking it from the live core`,
        );
        // A damaged snapshot kept would count as one of the two kept and push a good one out (as at a start).
        if (!built.ok && built.damagedBase) await this.options.db.deleteFrom("core_snapshot").where("seq", "=", String(base)).execute();
      }
      const inThread = await this.snapshotInThread({});
      return inThread && { ...inThread, offThread: false };
    });
  }

  private snapshotting: Promise<unknown> = Promise.resolve();

  /** Snapshots are written one after the other (a periodic one and the closing one never interleave). */
  private oneSnapshotAtATime<T>(write: () => Promise<T>): Promise<T> {
    const next = this.snapshotting.then(write, write);
    this.snapshotting = next.catch(() => {});
    return next;
  }

  private async snapshotInThread(options: { force?: boolean; dropOlder?: boolean }): Promise<{ seq: number; bytes: number; pruned: number } | null> {
    if (this.core.lastSeq === this.lastSnapshotSeq && !options.force) return null;
    const snapshot = snapshotOf(this.core);
    // Stored once every command it includes is committed (an empty change queued behind them),
    // in a transaction of its own: orders never wait for a large insert, and a failed one only
    // means the next start replays a longer tail.
    await this.committer.commit(() => []);
    // ... and once the tables include them: a start resumes the projection from a snapshot at or before its cursor.
    if (!(await this.projector.reach(snapshot.seq, 60_000))) throw new Error(`the tables did not reach snapshot ${snapshot.seq} within a minute; not stored`);
    return this.storeSnapshot(snapshot, options);
  }

  /** Where a snapshot worker reads a stored snapshot itself: the option, else the data folder's copy, if one is kept. */
  private snapshotSource(): SnapshotSource | undefined {
    return this.options.snapshotSource ?? (this.options.snapshotFile ? { file: this.options.snapshotFile } : undefined);
  }

  /** Stores a snapshot whose commands are committed and in the tables, then prunes the journal. */
  private async storeSnapshot(snapshot: SnapshotText, options: { dropOlder?: boolean }): Promise<{ seq: number; bytes: number; pruned: number }> {
    await this.options.db.transaction().execute(async (trx) => {
      await saveSnapshot(trx, snapshot);
      // A state rebuilt from the tables starts a new line: an older snapshot plus the journal
      // might not lead to it, so none is kept to fall back to.
      if (options.dropOlder) await trx.deleteFrom("core_snapshot").where("seq", "<", String(snapshot.seq)).execute();
    });
    return this.snapshotStored(snapshot);
  }

  /** After a snapshot's row committed (here, or by the worker that built it): the copy, then the journal and keys it lets go. */
  private async snapshotStored(
    snapshot: SnapshotText | { seq: number; checksum: string; stored: number },
  ): Promise<{ seq: number; bytes: number; pruned: number }> {
    this.lastSnapshotSeq = snapshot.seq;
    this.needsSnapshot = false;
    // The next start's prefetch reads this copy instead of the row (PGlite); without it, it reads the row.
    if (!("stored" in snapshot)) await this.copySnapshotToFile(snapshot);
    const pruned = await pruneJournal(this.options.db, this.projector.cursor);
    await this.pruneKeys();
    return { seq: snapshot.seq, bytes: "stored" in snapshot ? snapshot.stored : snapshot.data.length, pruned: pruned.commands };
  }

  private fileCopy: Promise<void> = Promise.resolve();
  private fileCopySeq = -1;

  /**
   * Replaces the data folder's copy of the newest snapshot (`snapshotFile`, if kept), one write at
   * a time and never with an older one; a failure is warned (the next start then reads the row).
   */
  private copySnapshotToFile(snapshot: SnapshotText): Promise<void> {
    const file = this.options.snapshotFile;
    if (!file) return Promise.resolve();
    this.fileCopy = this.fileCopy.then(async () => {
      if (snapshot.seq < this.fileCopySeq) return;
      this.fileCopySeq = snapshot.seq;
      await writeSnapshotFile(file, snapshot).catch((error: unknown) =>
        (this.options.warn ?? console.warn)(`the snapshot's copy in ${file} was not written (${(error as Error).message})`),
      );
    });
    return this.fileCopy;
  }

  /** Waits for the data folder's copy being written, if any (a closing engine lets it finish). */
  snapshotCopied(): Promise<void> {
    return this.fileCopy;
  }

  /** Waits until everything applied so far is committed and in the tables. */
  async drain(): Promise<void> {
    await this.committer.drain();
    await this.projector.drain();
  }

  /**
   * Waits (up to `timeoutMs`) until the tables include every command that touched the member's
   * rows, so their history and open orders read back what they were just answered. False when it
   * timed out (the answer may then trail by the projection's lag).
   */
  async projectedFor(memberId: string, timeoutMs = 5_000): Promise<boolean> {
    const seq = this.memberSeq.get(memberId);
    if (seq === undefined) return true;
    if (seq <= this.projector.cursor) {
      this.memberSeq.delete(memberId);
      return true;
    }
    return this.projector.reach(seq, timeoutMs);
  }

  /**
   * Waits (up to `timeoutMs`) until the tables include every command applied so far: an
   * operator's list reads back everything members were answered. False when it timed out.
   */
  async projectedAll(timeoutMs = 5_000): Promise<boolean> {
    const seq = this.core.lastSeq;
    return seq <= this.projector.cursor || this.projector.reach(seq, timeoutMs);
  }

  /** How far the tables trail the core (for /healthz and the benchmark). */
  projectionLag() {
    return this.projector.lag();
  }

  /** The last command the query tables include. */
  get projectedSeq(): number {
    return this.projector.cursor;
  }

  /** Tests and benchmarks: the projector itself (pause it to play a crash before the tables are written). */
  get projection(): Projector {
    return this.projector;
  }

  now(): number {
    return this.options.now?.() ?? Date.now();
  }

  scaleOf(asset: string): number {
    return this.core.scaleOf(asset);
  }

  /** The tables now include `cursor`. */
  private projectedUpTo(cursor: number): void {
    this.funds.projectedUpTo(cursor);
    // Members whose rows are all written need no entry: swept when the map has doubled since the last sweep.
    if (this.memberSeq.size > this.memberSweepAt) {
      for (const [member, seq] of this.memberSeq) if (seq <= cursor) this.memberSeq.delete(member);
      this.memberSweepAt = Math.max(1_000, this.memberSeq.size * 2);
    }
  }

  /** The batch now collecting: a command adds its rows as it is applied. */
  private collecting(): CommandBatch {
    const number = this.committer.currentBatch;
    let batch = this.batches.get(number);
    if (!batch) {
      batch = new CommandBatch();
      this.batches.set(number, batch);
    }
    return batch;
  }

  /**
   * An accepted command joins the collecting batch: its journal row (with the key it was asked
   * with), the listeners, its table rows.
   */
  private accept(command: Command, outcome: Accepted, kept?: JournalKept): CommandBatch {
    const batch = this.collecting();
    const at = new Date(this.now());
    // The time as the tables store it, made once: a Date in a row has JSON.stringify call back
    // into JavaScript for each row (3-4 times a string's cost, in the projection's hot loop).
    const stamp = at.toISOString();
    batch.appendCommand(outcome.seq, stamp, command, kept ? JSON.stringify(kept) : null);
    if (kept) this.keepAnswer(kept, at.getTime(), outcome.seq, at.getTime());
    if (this.eventListeners.length) {
      const applied: AppliedCommand = { seq: outcome.seq, at: at.getTime(), batch: this.committer.currentBatch, command, events: outcome.events };
      // A listener (market data, pushes) never stops a command the core already applied.
      for (const listener of this.eventListeners) {
        try {
          listener(applied);
        } catch (error) {
          console.error("a listener of the core's events failed (the command stands)", error);
        }
      }
    }
    this.project(batch, command, outcome, at, stamp, kept);
    return batch;
  }

  /**
   * The table rows of an accepted command, as they are right after it: by the product it belongs
   * to, written by the projector once the command's journal row is committed (and by a start for
   * the commands the tables had not caught up with).
   */
  private project(batch: CommandBatch, command: Command, outcome: Accepted, at: Date, stamp: string, kept?: JournalKept): void {
    const seq = outcome.seq;
    const ctx: ProjectionContext = {
      core: this.core,
      batch,
      seq,
      at,
      stamp,
      touched: (memberId) => this.memberSeq.set(memberId, seq),
      transfers: (events, factElsewhere) => batch.rows(LEDGER_ROWS).record(events, this.core.ledger, (asset) => this.core.scaleOf(asset), stamp, factElsewhere),
    };
    const owner = this.owners.get(command.type);
    if (!owner) throw new Error(`no product plugged in owns ${command.type}`);
    owner.project(command, outcome, ctx);
    const followers = this.followers.get(command.type);
    if (followers) for (const follower of followers) follower.follow?.(command, outcome, ctx);
    if (kept) batch.rows(KEY_ROWS).add(keyRow(kept, stamp));
  }

  /** Holds a first answer in memory for the keys' window (`seq`: the command whose rows write its table row; 0: the journal's). */
  private keepAnswer(kept: JournalKept, at: number, seq: number, now: number): void {
    const answer: KeptAnswer = { fingerprint: kept.fingerprint, response: kept.response, at, seq };
    this.kept.keep(`${kept.memberId}:${kept.key}`, answer, now, this.projector.cursor);
  }

  /**
   * Loads the table's keys of the window into memory, behind the start: until it is done, a key
   * missing from memory is looked up in the table, as before. At most the cap's newest are read.
   */
  private loadKeptAnswers(): void {
    const { db } = this.options;
    const cap = this.keyCap;
    const since = new Date(this.now() - this.keyWindowMs);
    this.keptLoading = db
      .selectFrom("idempotency_key")
      .select(["member_id", "key", "response", "fingerprint", "created_at"])
      .where("created_at", ">", since)
      .orderBy("created_at", "desc")
      .limit(cap)
      .execute()
      .then((rows) => {
        const entries = rows
          .reverse()
          .map((r): [string, KeptAnswer] => [
            `${r.member_id}:${r.key}`,
            { fingerprint: r.fingerprint, response: r.response, at: new Date(r.created_at as unknown as string).getTime(), seq: 0 },
          ]);
        this.kept.loaded(entries, rows.length < cap, this.now(), this.projector.cursor);
      })
      .catch((error: unknown) => {
        // Memory then never vouches for a miss: every one is asked of the table.
        (this.options.warn ?? console.warn)(`the recent idempotency keys were not loaded (${(error as Error).message}); keys are looked up in the table`);
      });
  }

  private lookUpKey(id: string) {
    this.keyTableLookups++;
    return this.answers.get(id);
  }

  /**
   * Deletes the keys past their window (they answer nothing any more), a few thousand rows a
   * statement: the first pruning after an upgrade finds every key ever kept.
   */
  private async pruneKeys(): Promise<void> {
    const since = new Date(this.now() - this.keyWindowMs).toISOString();
    for (;;) {
      const deleted = await sql`delete from idempotency_key where (member_id, key) in (
          select member_id, key from idempotency_key where created_at < ${since}::timestamptz limit 5000)`.execute(this.options.db);
      if (Number(deleted.numAffectedRows ?? 0) < 5000) return;
    }
  }

  /** Tests: resolves once the recent keys are in memory. */
  keptAnswersLoaded(): Promise<void> {
    return this.keptLoading;
  }
}
