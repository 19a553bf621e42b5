import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { readNewestSnapshot, readSnapshotFile, type PrefetchedSnapshot, type SnapshotSource } from "./snapshot-prefetch";

/** The thread that reads the newest snapshot ahead of a start (snapshot-prefetch.ts); any failure answers null. */
const source = workerData as SnapshotSource;
let answer: PrefetchedSnapshot | null = null;
if ("file" in source) {
  answer = await readSnapshotFile(source.file).catch(() => null);
} else {
  const client = new pg.Client({ connectionString: source.databaseUrl });
  try {
    await client.connect();
    answer = await readNewestSnapshot((text) => client.query(text));
  } catch {
    answer = null;
  } finally {
    await client.end().catch(() => undefined);
  }
}
parentPort!.postMessage(answer);
