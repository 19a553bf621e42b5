import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { PGliteDialect } from "./pglite-dialect";
import type { Database } from "./schema";

export type StoreKind = "pglite" | "postgres";

export interface Store {
  db: Kysely<Database>;
  kind: StoreKind;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Postgres URL; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** Folder of the embedded database (`<dataDir>/pgdata`); `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** Postgres schema to use (tests isolate themselves in a schema of their own). */
  schema?: string;
}

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

/** Opens the database: `pg` when a URL is given, else embedded PGlite under `dataDir`. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await sql`select 1`.execute(db);
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  let location = options.dataDir;
  if (!location.startsWith("memory://")) {
    location = path.resolve(options.dataDir, "pgdata");
    mkdirSync(location, { recursive: true });
  }
  const client = await PGlite.create(location, {
    parsers: { 1700: RAW_TEXT, 20: RAW_TEXT },
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_WAL_BOUNDS],
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return { db, kind: "pglite", close: () => db.destroy() };
}
