import { createHash } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import type { Command } from "../core/exchange/commands";
import type { CoreSnapshot } from "../core/exchange/core-snapshot";
import { ExchangeCore } from "../core/exchange/exchange-core";
import type { SnapshotJob, SnapshotJobResult } from "./snapshot-builder";

/**
 * The worker thread of `buildSnapshotOffThread` (decision 017, step 9): the base snapshot's text
 * (checked against its checksum), restored into a core of its own; the journal's commands after
 * it applied in order, each taking its recorded number; the result as a snapshot's text with its
 * checksum. The engine's event loop never runs any of it: the core is deterministic, so the
 * replayed state is the state the engine had at that command.
 */
function build(job: SnapshotJob): SnapshotJobResult {
  if (sha256(job.base) !== job.baseChecksum) return { ok: false, error: `the base snapshot ${job.baseSeq} does not match its checksum` };
  const core = ExchangeCore.fromSnapshot(JSON.parse(job.base) as CoreSnapshot, job.idPrefix);
  if (core.lastSeq !== job.baseSeq) return { ok: false, error: `the base snapshot says it stands at ${core.lastSeq}, not ${job.baseSeq}` };
  for (const [seq, text] of job.commands) {
    const outcome = core.apply(JSON.parse(text) as Command);
    if (outcome.seq !== seq) return { ok: false, error: `journal command ${seq} replays as ${outcome.seq ?? outcome.code}` };
  }
  const data = JSON.stringify(core.snapshot());
  return { ok: true, seq: core.lastSeq, checksum: sha256(data), data };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

try {
  parentPort!.postMessage(build(workerData as SnapshotJob));
} catch (error) {
  parentPort!.postMessage({ ok: false, error: (error as Error).message } satisfies SnapshotJobResult);
}
