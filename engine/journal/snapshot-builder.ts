import { Worker } from "node:worker_threads";

/** What the worker is given: the base snapshot as stored, and the journal's commands after it (JSON texts, in order). */
export interface SnapshotJob {
  baseSeq: number;
  baseChecksum: string;
  base: string;
  idPrefix: string;
  commands: Array<[seq: number, command: string]>;
}

export type SnapshotJobResult = { ok: true; seq: number; checksum: string; data: string } | { ok: false; error: string };

/**
 * Builds the next snapshot in a worker thread, from the newest stored snapshot plus the journal
 * after it, so the engine never stops for it (decision 017, step 9): copying a million resting
 * orders out of the live core took seconds of a blocked event loop. The worker loads TypeScript
 * through tsx, as the engine does.
 */
export function buildSnapshotOffThread(job: SnapshotJob): Promise<SnapshotJobResult> {
  const entry = new URL("./snapshot-worker.ts", import.meta.url).href;
  // An eval'd entry registers tsx first (a worker started on a .ts file directly is not passed through the engine's loader).
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Promise((resolve) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: job });
    let settled = false;
    const settle = (result: SnapshotJobResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
      void worker.terminate();
    };
    worker.once("message", (result: SnapshotJobResult) => settle(result));
    worker.once("error", (error) => settle({ ok: false, error: error.message }));
    worker.once("exit", (code) => settle({ ok: false, error: `the snapshot worker exited (${code}) without a snapshot` }));
  });
}
