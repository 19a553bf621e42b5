import { mkdirSync } from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { PGliteDialect } from "./pglite-dialect";
import { PGliteThread } from "./pglite-thread";
import type { Database } from "./schema";

export type StoreKind = "pglite" | "postgres";

export interface Store {
  db: Kysely<Database>;
  kind: StoreKind;
  /**
   * Follows a notification channel (`LISTEN`): `onNotify` runs for each notification committed on
   * it, by this process or another. Resolves once listening; the function it gives stops. On
   * Postgres it holds a connection of its own; if that drops, `onLost` runs and notifications stop
   * until `listen` is called again (`ConfigVersion` listens again, and reads its counter meanwhile).
   */
  listen(channel: string, onNotify: (payload: string) => void, onLost?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Postgres URL; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** Folder of the embedded database (`<dataDir>/pgdata`); `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** Postgres schema to use (tests isolate themselves in a schema of their own). */
  schema?: string;
  /** The embedded database's thread ended without being closed (pglite-thread.ts): the engine stops. */
  onLost?: (error: Error) => void;
  /** Where a dropped Postgres connection is logged (the engine's logger, pino's shape); the console by default. */
  log?: StoreLog;
}

/** A one-line warning, in pino's shape (`app.log` fits). */
export interface StoreLog {
  warn(obj: object, msg: string): void;
}

const CONSOLE_LOG: StoreLog = { warn: (obj, msg) => console.warn(`[engine] ${msg}`, obj) };

// NUMERIC (1700) and INT8 (20) stay strings: amounts are exact and ids never lose digits.
const RAW_TEXT = (value: string) => value;
pg.types.setTypeParser(1700, RAW_TEXT);
pg.types.setTypeParser(20, RAW_TEXT);

/**
 * What a checkpoint of the embedded database keeps of the write-ahead log: segments are 16 MB, at
 * least two are kept for reuse (the smallest `min_wal_size` allowed), at most 64 MB of them. PGlite
 * runs single-user, with no checkpointer: nothing checkpoints on its own, the engine's housekeeping
 * does (engine/store/embedded-upkeep.ts); without it the log grows for as long as the process runs.
 */
const EMBEDDED_WAL_BOUNDS = ["-c", "min_wal_size=32MB", "-c", "max_wal_size=64MB"];

/**
 * A dropped connection (a restarted or failed-over server, `pg_terminate_backend`, a network cut)
 * is logged, never the end of the engine: `pg` reports it as an `error` event, which with no
 * listener is an uncaught exception. An idle one is the pool's event (the pool discards it); one
 * checked out (inside a transaction, between its statements) is its client's, whose statement
 * fails as any failed statement does, and the pool discards it when it comes back. Either way the
 * pool opens a new connection on next use. Logged once per connection (`pg` can report one drop
 * twice: the server's message, then the closed socket).
 */
function watchPoolConnections(pool: pg.Pool, log: StoreLog): void {
  const reported = new WeakSet<object>();
  const dropped = (client: object, error: Error) => {
    if (reported.has(client)) return;
    reported.add(client);
    log.warn({ err: error.message }, "a database connection dropped; the pool opens another on next use");
  };
  pool.on("error", (error, client) => dropped(client, error));
  pool.on("connect", (client) => client.on("error", (error) => dropped(client, error)));
}

/** Opens the database: `pg` when a URL is given, else embedded PGlite under `dataDir`. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    watchPoolConnections(pool, options.log ?? CONSOLE_LOG);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await sql`select 1`.execute(db);
    const listen = async (channel: string, onNotify: (payload: string) => void, onLost?: () => void) => {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      client.on("notification", (message) => {
        if (message.channel === channel) onNotify(message.payload ?? "");
      });
      // A dropped connection ends this listener: the caller hears of it and listens again.
      let lost = false;
      const drop = () => {
        if (lost) return;
        lost = true;
        onLost?.();
      };
      client.on("error", drop);
      client.on("end", drop);
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      return async () => {
        lost = true; // stopped on purpose: nothing was lost
        await client.end().catch(() => undefined);
      };
    };
    return { db, kind: "postgres", listen, close: () => db.destroy() };
  }
  let location = options.dataDir;
  if (!location.startsWith("memory://")) {
    location = path.resolve(options.dataDir, "pgdata");
    mkdirSync(location, { recursive: true });
  }
  // In a thread of its own (decision 017, step 17): its start and its statements off the event loop.
  const client = new PGliteThread(location, EMBEDDED_WAL_BOUNDS, options.onLost);
  try {
    await client.waitReady;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  // LISTEN and UNLISTEN run while holding the one connection (the dialect's lock), never inside
  // another caller's open transaction, where a rollback would undo them.
  const listen = async (channel: string, onNotify: (payload: string) => void) => {
    const stop = await db.connection().execute(() => client.listen(channel, onNotify));
    return async () => {
      if (!client.closed) await db.connection().execute(() => stop());
    };
  };
  return { db, kind: "pglite", listen, close: () => db.destroy() };
}
