// The embedded database's own thread (decision 017, step 17; the main side is pglite-thread.ts).
// PGlite is Postgres compiled to WebAssembly: in the engine's thread its every statement, its
// start and its collector ran on the event loop that answers members. Here it runs beside it, as
// a Postgres server runs beside a Node process, on the machine's other core.
//
// Plain JavaScript on purpose: it runs as it is from the sources (tests, development) and is
// bundled as it is beside the built engine (`pglite-thread.mjs`), with no TypeScript loader to
// start in the thread.
//
// Messages in: { id, op: "exec", sql } | { id, op: "query", sql, params } | { id, op: "listen", channel }
//            | { id, op: "unlisten", listenId } | { id, op: "close" }
// Messages out: { ready: true } | { failed: error } | { id, ok: true, result } | { id, ok: false, error }
//             | { notify: listenId, payload }
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

/** NUMERIC (1700) and INT8 (20) stay strings: amounts are exact and ids never lose digits. */
const RAW_TEXT = (value) => value;

/** What a Postgres error says, field by field (an Error's own fields do not cross threads). */
function describeError(error) {
  const out = { message: error instanceof Error ? error.message : String(error), name: error?.name ?? "Error" };
  if (error && typeof error === "object") {
    for (const [key, value] of Object.entries(error)) {
      if (key === "params" || key === "query") continue; // the statement and its values stay here
      if (value === null || ["string", "number", "boolean"].includes(typeof value)) out[key] = value;
    }
  }
  return out;
}

/** Only what the dialect reads of a result: its rows and how many rows it changed. */
const shape = (result) => (result ? { rows: result.rows, affectedRows: result.affectedRows } : { rows: [], affectedRows: 0 });

const port = parentPort;
let client;
try {
  client = await PGlite.create(workerData.location, {
    parsers: { 1700: RAW_TEXT, 20: RAW_TEXT },
    startParams: [...PGlite.defaultStartParams, ...workerData.startParams],
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ failed: describeError(error) });
  process.exit(1);
}

const listeners = new Map();

port.on("message", async (message) => {
  const { id, op } = message;
  try {
    let result;
    if (op === "exec") {
      // Several statements (migrations, a projection's script): the last one's result.
      result = shape((await client.exec(message.sql, { rowMode: "object" })).at(-1));
    } else if (op === "query") {
      result = shape(await client.query(message.sql, message.params, { rowMode: "object" }));
    } else if (op === "listen") {
      listeners.set(id, await client.listen(message.channel, (payload) => port.postMessage({ notify: id, payload })));
    } else if (op === "unlisten") {
      const stop = listeners.get(message.listenId);
      listeners.delete(message.listenId);
      if (stop && !client.closed) await stop();
    } else if (op === "close") {
      if (!client.closed) await client.close();
      port.postMessage({ id, ok: true });
      port.close();
      return;
    } else {
      throw new Error(`unknown operation ${op}`);
    }
    port.postMessage({ id, ok: true, result });
  } catch (error) {
    port.postMessage({ id, ok: false, error: describeError(error) });
  }
});
