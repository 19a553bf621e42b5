import { parentPort, workerData } from "node:worker_threads";
import type { Command } from "../core/exchange/commands";
import type { CoreSnapshot } from "../core/exchange/core-snapshot";
import { ExchangeCore } from "../core/exchange/exchange-core";
import { sha256, snapshotOf } from "./journal";
import type { FromSnapshotWorker, SnapshotBase, ToSnapshotWorker } from "./snapshot-builder";

/**
 * The worker thread of `buildSnapshotOffThread` (decision 017, step 9): the base snapshot's text
 * (checked against its checksum) restored into a core of its own; the journal's commands after it
 * applied as their pages arrive, each taking its recorded number; at the end, the new snapshot's
 * text with its checksum. The engine's event loop runs none of it: the core is deterministic, so
 * the replayed state is the state the engine had at that command.
 */
const port = parentPort!;
const reply = (message: FromSnapshotWorker) => port.postMessage(message);
const job = workerData as SnapshotBase;

function restore(): ExchangeCore | null {
  if (sha256(job.base) !== job.baseChecksum) {
    reply({ ok: false, error: `the base snapshot ${job.baseSeq} does not match its checksum`, damagedBase: true });
    return null;
  }
  let core: ExchangeCore;
  try {
    core = ExchangeCore.fromSnapshot(JSON.parse(job.base) as CoreSnapshot, job.idPrefix);
  } catch (error) {
    reply({ ok: false, error: `the base snapshot ${job.baseSeq} cannot be read (${(error as Error).message})`, damagedBase: true });
    return null;
  }
  if (core.lastSeq !== job.baseSeq) {
    reply({ ok: false, error: `the base snapshot says it stands at ${core.lastSeq}, not ${job.baseSeq}`, damagedBase: true });
    return null;
  }
  return core;
}

const core = restore();
if (core) {
  let failed = false;
  port.on("message", (message: ToSnapshotWorker) => {
    if (failed) return;
    try {
      if ("commands" in message) {
        for (const [seq, text] of message.commands) {
          const outcome = core.apply(JSON.parse(text) as Command);
          if (outcome.seq !== seq) {
            failed = true;
            reply({ ok: false, error: `journal command ${seq} replays as ${outcome.seq ?? outcome.code}` });
            return;
          }
        }
        return;
      }
      reply({ ok: true, ...snapshotOf(core) });
    } catch (error) {
      failed = true;
      reply({ ok: false, error: (error as Error).message });
    }
  });
  reply({ ready: true });
}
