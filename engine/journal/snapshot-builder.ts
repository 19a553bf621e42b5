import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { SnapshotSource } from "./snapshot-prefetch";

/**
 * What the worker starts from: the base snapshot's sequence and stored checksum, and its text, or
 * where the worker reads it itself (decision 017, step 19): the database's row (Postgres, on a
 * connection of its own) or the embedded database's copy in its data folder. Read there, tens of
 * megabytes of text never pass through the engine's event loop.
 */
export type SnapshotBase = {
  baseSeq: number;
  baseChecksum: string;
  idPrefix: string;
} & ({ base: string } | { source: SnapshotSource; storeAt?: number });

/** Messages to the worker after its start: pages of the journal after the base (JSON texts, in order), then the end. */
export type ToSnapshotWorker = { commands: Array<[seq: number, command: string]> } | { end: true };

/** Messages from the worker: its base restored, or its snapshot, or why not. */
export type FromSnapshotWorker = { ready: true } | SnapshotBuilt;

/**
 * The snapshot built (its text), or already stored by the worker (`storeAt`: it reached that
 * sequence, and its base is in a database, where it writes the row itself), or why
 * not: `damagedBase`, the stored base is unusable; `baseUnavailable`, the worker could not read
 * it where it was sent (a stale or missing copy, no connection): its text must be given.
 */
export type SnapshotBuilt =
  /** `notStored`: the worker was asked to store it and could not (why): the engine stores it. */
  | { ok: true; seq: number; checksum: string; data: string; notStored?: string }
  /** Stored by the worker on its own connection (`storeAt`, a database source): its size in characters. */
  | { ok: true; seq: number; checksum: string; stored: number }
  | { ok: false; error: string; damagedBase?: boolean; baseUnavailable?: boolean };

/** How long a build may take before the worker is stopped (a worker that hangs must not stop later snapshots or a shutdown). */
const WORKER_TIMEOUT_MS = 10 * 60_000;

/**
 * Builds the next snapshot in a worker thread, from the newest stored snapshot plus the journal
 * after it, so the engine never stops for it (decision 017, step 9): copying a million resting
 * orders out of the live core took seconds of a blocked event loop. The worker restores the base
 * while `pages` reads the journal; each page is handed over as it is read (a short copy each,
 * never the whole tail at once), and the worker applies it.
 */
export async function buildSnapshotOffThread(
  base: SnapshotBase,
  pages: (send: (commands: Array<[number, string]>) => void) => Promise<void>,
  timeoutMs = WORKER_TIMEOUT_MS,
): Promise<SnapshotBuilt> {
  const worker = new Worker(bootstrap(), { eval: true, workerData: base });
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  let timer: NodeJS.Timeout | undefined;
  const result = new Promise<SnapshotBuilt>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `the snapshot worker took longer than ${timeoutMs} ms` }), timeoutMs);
    worker.on("message", (message: FromSnapshotWorker) => ("ready" in message ? ready() : resolve(message)));
    worker.once("error", (error) => resolve({ ok: false, error: error.message }));
    worker.once("exit", (code) => resolve({ ok: false, error: `the snapshot worker exited (${code}) without a snapshot` }));
  });
  try {
    // Nothing is sent before the worker holds its base (or has already answered why not).
    if (await Promise.race([started.then(() => true), result.then(() => false)])) {
      await pages((commands) => worker.postMessage({ commands } satisfies ToSnapshotWorker));
      worker.postMessage({ end: true } satisfies ToSnapshotWorker);
    }
    return await result;
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
    void worker.terminate();
  }
}

/**
 * The worker's entry. From the built engine (`scripts/build-engine.mjs`, a `.mjs` bundle) it is
 * the worker's own bundle beside it. From the TypeScript it registers tsx (a worker started on a
 * `.ts` file directly is not passed through the engine's loader), then loads the worker module.
 * Both are resolved from this module, not from the working directory.
 */
function bootstrap(): string {
  const here = import.meta.url;
  if (here.endsWith(".mjs")) return `import(${JSON.stringify(new URL("./snapshot-worker.mjs", here).href)})`;
  const entry = new URL("./snapshot-worker.ts", here).href;
  return `import(${JSON.stringify(tsxApi())}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
}

function tsxApi(): string {
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  if (resolve) {
    try {
      return resolve("tsx/esm/api");
    } catch {
      // resolved below
    }
  }
  // The package's ESM build sits beside the CommonJS one `require.resolve` finds.
  return pathToFileURL(
    createRequire(import.meta.url)
      .resolve("tsx/esm/api")
      .replace(/\.cjs$/, ".mjs"),
  ).href;
}
