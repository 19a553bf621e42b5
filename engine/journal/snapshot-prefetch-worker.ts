import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { readNewestSnapshot } from "./snapshot-prefetch";

/** The thread that reads the newest snapshot ahead of a start (snapshot-prefetch.ts); any failure answers null. */
const { databaseUrl } = workerData as { databaseUrl: string };
const client = new pg.Client({ connectionString: databaseUrl });
let answer = null;
try {
  await client.connect();
  answer = await readNewestSnapshot((text) => client.query(text));
} catch {
  answer = null;
} finally {
  await client.end().catch(() => undefined);
}
parentPort!.postMessage(answer);
