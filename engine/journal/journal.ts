import { createHash } from "node:crypto";
import { CompiledQuery, sql, type Kysely, type Transaction } from "kysely";
import type { Command } from "../core/exchange/commands";
import { ExchangeCore } from "../core/exchange/exchange-core";
import { restoreSnapshot, restoreSnapshotInTurns, type CoreSnapshot } from "../core/exchange/core-snapshot";
import type { Database } from "../store/schema";
import type { PrefetchedSnapshot } from "./snapshot-prefetch";

/**
 * The command journal and core snapshots in the database (decision 017). Commands are appended
 * by the group commit with the rows they changed (CommandBatch); this module reads them back,
 * stores and loads snapshots, and drops what no kept snapshot needs.
 */

/** Journal rows read per query while replaying a tail at start. */
const PAGE = 20_000;
/** Journal rows read per query while the engine serves. */
const SERVING_PAGE = 2_000;
/** Snapshots kept: the newest, and one before it in case the newest is damaged. */
export const SNAPSHOTS_KEPT = 2;

/** The last sequence number in the journal (0: empty). */
export async function lastJournalSeq(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("command_journal")
    .select((eb) => eb.fn.max("seq").as("seq"))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** The journal after `afterSeq` (up to `upToSeq`, if given), `size` rows a query, in order. */
async function* journalPages(db: Kysely<Database>, afterSeq: number, upToSeq: number | null, size: number, withKept: boolean) {
  let after = afterSeq;
  for (;;) {
    // The keys only where they are used (a start's replay; not the snapshot worker's pages).
    let query = db
      .selectFrom("command_journal")
      .select(["seq", "at", "command", withKept ? "kept" : sql<null>`null`.as("kept")])
      .where("seq", ">", String(after));
    if (upToSeq !== null) query = query.where("seq", "<=", String(upToSeq));
    const rows = await query.orderBy("seq").limit(size).execute();
    if (rows.length) yield rows;
    if (rows.length < size) return;
    after = Number(rows[rows.length - 1]!.seq);
  }
}

/**
 * Every command after `afterSeq`, in order, with its sequence number, time and the idempotency
 * key it was asked with (`JournalKept` as JSON, or null); `each` may wait.
 */
export async function eachJournalCommand(
  db: Kysely<Database>,
  afterSeq: number,
  each: (seq: number, command: Command, at: Date, kept: string | null) => void | Promise<void>,
): Promise<number> {
  let count = 0;
  for await (const rows of journalPages(db, afterSeq, null, PAGE, true)) {
    for (const row of rows) {
      const waited = each(Number(row.seq), JSON.parse(row.command) as Command, new Date(row.at as unknown as string), row.kept);
      if (waited) await waited;
      count++;
    }
  }
  return count;
}

/**
 * The journal's commands after `afterSeq` up to `upToSeq`, as stored (JSON texts), a page at a
 * time, in order. Small pages: the engine serves between them (a page of rows is parsed in one
 * turn of its event loop).
 */
export async function eachJournalPage(
  db: Kysely<Database>,
  afterSeq: number,
  upToSeq: number,
  each: (page: Array<[seq: number, command: string]>) => void,
): Promise<void> {
  for await (const rows of journalPages(db, afterSeq, upToSeq, SERVING_PAGE, false)) each(rows.map((row) => [Number(row.seq), row.command]));
}

/** A snapshot to store: its sequence, the SHA-256 of its text, and the text. */
export type SnapshotText = { seq: number; checksum: string; data: string };

/** A snapshot of the core as it is now, ready to store, with the SHA-256 of its text. */
export function snapshotOf(core: ExchangeCore): SnapshotText {
  const data = JSON.stringify(core.snapshot());
  return { seq: core.lastSeq, checksum: sha256(data), data };
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The statement that stores a snapshot (`$1` its sequence, `$2` its checksum, `$3` its text): the
 * engine's (`saveSnapshot`) and the snapshot worker's on its own connection (step 19). A snapshot
 * at the same sequence replaces one found damaged at the last start.
 */
export const SAVE_SNAPSHOT = `insert into core_snapshot (seq, checksum, data) values ($1::bigint, $2, $3)
  on conflict (seq) do update set checksum = excluded.checksum, data = excluded.data, created_at = now()`;

/** Stores a snapshot in the transaction that commits the commands it includes. */
export async function saveSnapshot(trx: Transaction<Database>, snapshot: SnapshotText): Promise<void> {
  await trx.executeQuery(CompiledQuery.raw(SAVE_SNAPSHOT, [String(snapshot.seq), snapshot.checksum, snapshot.data]));
}

/** How long a start waits for a snapshot being read ahead before it reads the row itself (a reader that hangs never holds a start). */
const OFFER_WAIT_MS = 10_000;

function offerTimeout(): Promise<null> {
  return new Promise((resolve) => setTimeout(() => resolve(null), OFFER_WAIT_MS).unref());
}

/**
 * An offered snapshot (snapshot-prefetch.ts), perhaps already restored (`restoreOfferAhead`): the
 * core it gave, or why its text did not restore.
 */
export type SnapshotOffer = PrefetchedSnapshot & { restored?: { core: ExchangeCore } | { error: string } };

/**
 * Restores an offered snapshot before the database can say whether it is the one to start from
 * (decision 017, step 17): the engine does it while its store opens and migrates — the embedded
 * database starts in its own thread meanwhile, and the migrations' answers are taken between two
 * parts of the restore — instead of after. Only an offer whose own hash is
 * the checksum it names is restored; `restoreNewestSnapshot` still takes it only when that is the
 * newest stored snapshot's sequence and checksum, and otherwise lets it go (the work is wasted,
 * nothing else: a stale copy in an embedded database's folder, or a row that changed).
 */
export async function restoreOfferAhead(prefetched: Promise<PrefetchedSnapshot | null>, makeCore: () => ExchangeCore): Promise<SnapshotOffer | null> {
  // A reader that hangs never holds a start: past the wait, no offer.
  const offer = await Promise.race([prefetched, offerTimeout()]);
  if (!offer || offer.sha256 !== offer.checksum) return offer;
  const core = makeCore();
  try {
    await restoreSnapshotInTurns(core, JSON.parse(offer.data) as CoreSnapshot);
  } catch (error) {
    return { ...offer, restored: { error: (error as Error).message } };
  }
  return { ...offer, restored: { core } };
}

/**
 * A core restored from the newest snapshot whose text checks (newest first), or null when no
 * snapshot is usable (the caller then rebuilds otherwise). A damaged snapshot is reported
 * through `warn` and skipped. The text's SHA-256 guards the stored bytes; that a restore gives
 * the state the snapshot was taken of is what exchange-core.test.ts and the crash test prove
 * (the full state hash costs seconds for a million orders, too much for every start). An offer
 * (read ahead, perhaps restored ahead) stands in for the newest row only when it is that row's:
 * same sequence, and its own hash is the checksum stored with the row.
 */
export async function restoreNewestSnapshot(
  db: Kysely<Database>,
  makeCore: () => ExchangeCore,
  warn: (message: string) => void,
  prefetched?: Promise<SnapshotOffer | null>,
): Promise<{ core: ExchangeCore; skipped: boolean; snapshot: { seq: number; checksum: string; data: string }; offerTaken: boolean } | null> {
  const kept = await db.selectFrom("core_snapshot").select(["seq", "checksum"]).orderBy("seq", "desc").execute();
  let skipped = false;
  // A damaged snapshot is deleted: kept, it would count as one of the two and push a good one out.
  const drop = async (seq: string, why: string) => {
    warn(`snapshot ${seq} ${why}; deleted, trying an older one`);
    skipped = true;
    await db.deleteFrom("core_snapshot").where("seq", "=", seq).execute();
  };
  // Awaited even when nothing is stored: a restore ahead under way must not go on beside serving.
  // (Its wait for the offer is bounded in `restoreOfferAhead`; the restore itself is not cut short.)
  const offered = prefetched ? await prefetched : null;
  const offer = kept.length > 0 ? offered : null;
  for (const { seq, checksum } of kept) {
    const taken = offer !== null && offer.seq === Number(seq) && offer.sha256 === checksum ? offer : null;
    const row = taken !== null ? { data: taken.data } : await db.selectFrom("core_snapshot").select("data").where("seq", "=", seq).executeTakeFirst();
    if (!row || (taken === null && sha256(row.data) !== checksum)) {
      await drop(seq, "does not match its checksum");
      continue;
    }
    let core: ExchangeCore;
    try {
      const ahead = taken?.restored;
      if (ahead && "error" in ahead) throw new Error(ahead.error);
      if (ahead) core = ahead.core;
      else {
        core = makeCore();
        restoreSnapshot(core, JSON.parse(row.data) as CoreSnapshot);
      }
    } catch (error) {
      await drop(seq, `cannot be read (${(error as Error).message})`);
      continue;
    }
    if (core.lastSeq !== Number(seq)) {
      await drop(seq, `says it stands at ${core.lastSeq}`);
      continue;
    }
    return { core, skipped, snapshot: { seq: Number(seq), checksum, data: row.data }, offerTaken: taken !== null };
  }
  return null;
}

/**
 * Keeps the newest SNAPSHOTS_KEPT snapshots and the journal after the oldest of them: a start
 * needs no more (a damaged newest one falls back to the other and a longer tail), and never the
 * journal after `projected` (the tables' cursor), which a start must still write into the
 * tables. Answers the rows dropped. Archiving them first is the operator's choice (README,
 * decision 017).
 */
export async function pruneJournal(db: Kysely<Database>, projected: number): Promise<{ snapshots: number; commands: number }> {
  const kept = await db.selectFrom("core_snapshot").select("seq").orderBy("seq", "desc").limit(SNAPSHOTS_KEPT).execute();
  if (kept.length < SNAPSHOTS_KEPT) return { snapshots: 0, commands: 0 };
  const oldest = kept[kept.length - 1]!.seq;
  const snapshots = await db.deleteFrom("core_snapshot").where("seq", "<", oldest).executeTakeFirst();
  const upTo = Math.min(Number(oldest), projected);
  const commands = await sql`delete from command_journal where seq <= ${upTo}::bigint`.execute(db);
  return { snapshots: Number(snapshots.numDeletedRows), commands: Number(commands.numAffectedRows ?? 0) };
}
