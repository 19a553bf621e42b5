import { createHash } from "node:crypto";
import { open, readFile, rename } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import type { SnapshotText } from "./journal";

/**
 * The newest stored core snapshot, read and checked on another thread while the engine's own
 * modules load (decision 017, step 16). The built engine's entry (`engine/boot.ts`) starts the
 * reader before it loads the engine bundle: on Postgres it reads the newest `core_snapshot` row
 * (47 MB for a million orders, ~0.15 s mostly waiting for the server) and hashes it (~0.05 s);
 * on PGlite, whose files belong to the one embedded instance the engine opens, it reads the
 * copy the engine keeps of its newest snapshot in the data folder (`SNAPSHOT_FILE`, written
 * after each snapshot's row commits), which spares the embedded database a 47 MB read on the
 * main thread (~0.3 s). It is only an offer: the start lists the stored snapshots itself, after
 * its lock and migrations, and takes the offered text only when it is the newest one's (same
 * sequence) and its SHA-256, computed by the reader from the text itself, is the checksum stored
 * with that row; otherwise it reads the row as before. A missing, stale or torn file is no offer.
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

/** The copy of the newest snapshot in an embedded database's data folder: a line `<seq> <checksum>`, then the text. */
export const SNAPSHOT_FILE = "core-snapshot.json";

/** Where the reader looks: the newest row on Postgres, or the copy in the data folder. */
export type SnapshotSource = { databaseUrl: string } | { file: string };

/** Starts the reader (`workerUrl`: its bundle) on `source`; a start takes its answer once (`takeSnapshotPrefetch`). */
export function startSnapshotPrefetch(source: SnapshotSource, workerUrl: URL): void {
  const answer = new Promise<PrefetchedSnapshot | null>((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(workerUrl, { workerData: source });
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

/** The reader's side for the data folder's copy: its line, then the text, hashed here (null: no usable file). */
export async function readSnapshotFile(file: string): Promise<PrefetchedSnapshot | null> {
  const bytes = await readFile(file);
  const eol = bytes.indexOf(10);
  const head = /^(\d+) ([0-9a-f]{64})$/.exec(bytes.toString("latin1", 0, Math.max(eol, 0)));
  if (eol < 0 || !head) return null;
  const body = bytes.subarray(eol + 1);
  return { seq: Number(head[1]), checksum: head[2]!, sha256: createHash("sha256").update(body).digest("hex"), data: body.toString("utf8") };
}

/** Replaces the data folder's copy with this snapshot (written aside, then renamed over it: a reader never sees half of one). */
export async function writeSnapshotFile(file: string, snapshot: SnapshotText): Promise<void> {
  const aside = `${file}.writing`;
  const handle = await open(aside, "w");
  try {
    await handle.writeFile(`${snapshot.seq} ${snapshot.checksum}\n`);
    await handle.writeFile(snapshot.data);
  } finally {
    await handle.close();
  }
  await rename(aside, file);
}
