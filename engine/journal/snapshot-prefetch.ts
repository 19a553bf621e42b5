import { createHash } from "node:crypto";
import { Worker } from "node:worker_threads";

/**
 * The newest stored core snapshot, read and checked on another thread while the engine's own
 * modules load (decision 017, step 16). On Postgres a start's snapshot row is a 47 MB read
 * (~0.15 s, most of it waiting for the server) and a SHA-256 (~0.05 s): the built engine's entry
 * (`engine/boot.ts`) starts this reader before it loads the engine, so the row is usually in hand
 * by the time migrations are done. It is only an offer: the start lists the stored snapshots
 * itself, after its lock and migrations, and takes the offered text only when it is the newest
 * one's (same sequence) and its SHA-256, computed here from the text itself, is the checksum
 * stored with it; otherwise it reads the row as before. PGlite is not read here: its files belong
 * to the one embedded instance the engine opens.
 */
export interface PrefetchedSnapshot {
  seq: number;
  /** The checksum stored with it. */
  checksum: string;
  /** The SHA-256 of `data`, computed by the reader. */
  sha256: string;
  data: string;
}

const KEY = Symbol.for("exchange.engine.snapshot-prefetch");

/** Starts the reader (`workerUrl`: its bundle) on `databaseUrl`; a start takes its answer once (`takeSnapshotPrefetch`). */
export function startSnapshotPrefetch(databaseUrl: string, workerUrl: URL): void {
  const answer = new Promise<PrefetchedSnapshot | null>((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(workerUrl, { workerData: { databaseUrl } });
    } catch {
      resolve(null);
      return;
    }
    worker.unref();
    worker.once("message", (message: PrefetchedSnapshot | null) => resolve(message));
    // Anything else (it failed, or ended without an answer) means no offer: the start reads the row.
    worker.once("error", () => resolve(null));
    worker.once("exit", () => resolve(null));
  });
  (globalThis as Record<symbol, unknown>)[KEY] = answer;
}

/** The prefetched snapshot offered to this start (once; undefined when none was started). */
export function takeSnapshotPrefetch(): Promise<PrefetchedSnapshot | null> | undefined {
  const holder = globalThis as Record<symbol, Promise<PrefetchedSnapshot | null> | undefined>;
  const answer = holder[KEY];
  delete holder[KEY];
  return answer;
}

/** The reader's side: one query for the newest snapshot, its text hashed here. */
export async function readNewestSnapshot(
  query: (text: string) => Promise<{ rows: Array<{ seq: string; checksum: string; data: string }> }>,
): Promise<PrefetchedSnapshot | null> {
  const { rows } = await query("select seq::text as seq, checksum, data from core_snapshot order by seq desc limit 1");
  const row = rows[0];
  if (!row) return null;
  return { seq: Number(row.seq), checksum: row.checksum, sha256: createHash("sha256").update(row.data).digest("hex"), data: row.data };
}
