import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import type { Command } from "../core/exchange/commands";
import type { CoreSnapshot } from "../core/exchange/core-snapshot";
import { ExchangeCore } from "../core/exchange/exchange-core";
import { SAVE_SNAPSHOT, sha256, snapshotOf } from "./journal";
import { readSnapshotFile } from "./snapshot-prefetch";
import type { FromSnapshotWorker, SnapshotBase, ToSnapshotWorker } from "./snapshot-builder";

/**
 * The worker thread of `buildSnapshotOffThread` (decision 017, step 9): the base snapshot's text
 * (given, or read here: step 19; checked against its checksum) restored into a core of its own;
 * the journal's commands after it applied as their pages arrive, each taking its recorded number;
 * at the end, the new snapshot's text with its checksum, or, asked to store it on this thread's
 * own connection, its size. The engine's event loop runs none of it: the core is deterministic,
 * so the replayed state is the state the engine had at that command.
 */
const port = parentPort!;
const reply = (message: FromSnapshotWorker) => port.postMessage(message);
const job = workerData as SnapshotBase;

/** The base's text: as given, or read here from where the engine pointed (null: answered why not). */
async function baseText(): Promise<string | null> {
  if ("base" in job) return job.base;
  const unavailable = (why: string) => {
    reply({ ok: false, error: `the base snapshot ${job.baseSeq} could not be read here (${why})`, baseUnavailable: true });
    return null;
  };
  const { source } = job;
  if ("file" in source) {
    // The data folder's copy is a convenience: a stale, torn or missing one only means the engine sends the row.
    const copy = await readSnapshotFile(source.file).catch(() => null);
    if (!copy) return unavailable("no copy in the data folder");
    if (copy.seq !== job.baseSeq || copy.checksum !== job.baseChecksum || copy.sha256 !== copy.checksum) return unavailable(`the copy is of ${copy.seq}`);
    return copy.data;
  }
  const client = connection(source.databaseUrl);
  try {
    await client.connect();
    const { rows } = await client.query<{ data: string }>("select data from core_snapshot where seq = $1", [String(job.baseSeq)]);
    return rows[0] ? rows[0].data : unavailable("no such row");
  } catch (error) {
    return unavailable((error as Error).message);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A connection of this thread's own: bounded waits (a server that stops answering must not hold
 * the engine's snapshots, its closing one included), and a dropped connection is an error of the
 * query that meets it, never an unhandled event that ends the thread.
 */
function connection(databaseUrl: string): pg.Client {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000, query_timeout: 120_000, keepAlive: true });
  client.on("error", () => undefined);
  return client;
}

/**
 * Stores the snapshot with the engine's statement (`SAVE_SNAPSHOT`: one statement, so all or nothing), on
 * a connection of this thread's own (opened now: one held through a long replay may have been
 * dropped), so its text never crosses to the engine. If it cannot, the text goes to the engine
 * after all, which stores it (and says why it had to).
 */
async function store(databaseUrl: string, seq: number, checksum: string, data: string): Promise<void> {
  const client = connection(databaseUrl);
  let failed: string | null = null;
  try {
    await client.connect();
    await client.query(SAVE_SNAPSHOT, [String(seq), checksum, data]);
  } catch (error) {
    failed = (error as Error).message;
  } finally {
    // Closed before the answer: the engine ends this thread as soon as it has it.
    await client.end().catch(() => undefined);
  }
  reply(failed === null ? { ok: true, seq, checksum, stored: data.length } : { ok: true, seq, checksum, data, notStored: failed });
}

function restore(text: string): ExchangeCore | null {
  if (sha256(text) !== job.baseChecksum) {
    reply({ ok: false, error: `the base snapshot ${job.baseSeq} does not match its checksum`, damagedBase: true });
    return null;
  }
  let core: ExchangeCore;
  try {
    core = ExchangeCore.fromSnapshot(JSON.parse(text) as CoreSnapshot, job.idPrefix);
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

const text = await baseText();
const core = text === null ? null : restore(text);
if (core) {
  let failed = false;
  port.on("message", (message: ToSnapshotWorker) => {
    if (failed) return;
    try {
      if ("commands" in message) {
        for (const [seq, command] of message.commands) {
          const outcome = core.apply(JSON.parse(command) as Command);
          if (outcome.seq !== seq) {
            failed = true;
            reply({ ok: false, error: `journal command ${seq} replays as ${outcome.seq ?? outcome.code}` });
            return;
          }
        }
        return;
      }
      const { seq, checksum, data } = snapshotOf(core);
      if ("source" in job && "databaseUrl" in job.source && job.storeAt === seq) {
        void store(job.source.databaseUrl, seq, checksum, data);
        return;
      }
      reply({ ok: true, seq, checksum, data });
    } catch (error) {
      failed = true;
      reply({ ok: false, error: (error as Error).message });
    }
  });
  reply({ ready: true });
}
