import { sql, type Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * What a Postgres server does in the background, done by hand for the embedded database. PGlite
 * runs Postgres in single-user mode: there is no checkpointer and no autovacuum, so the write-ahead
 * log grows until the process closes (164 MB of `pg_wal` after 27 minutes of the simulator) and
 * the dead rows of every update and delete are never reclaimed. Each run:
 * - `VACUUM` makes the space of dead rows reusable (plain, not FULL: it never rewrites a table
 *   nor takes it away from the engine for long; the visibility map lets it skip settled pages);
 * - `CHECKPOINT` writes the dirty pages out, after which the log before it is no longer needed
 *   and its segments are removed or recycled, down to the bounds `openStore` sets
 *   (`min_wal_size`/`max_wal_size`).
 * Both hold the single connection while they run (tens to a few hundred milliseconds): run them
 * on a timer, never per command. On a Postgres server this is not needed and not run.
 */
export async function upkeepEmbedded(db: Kysely<Database>): Promise<void> {
  await sql`vacuum`.execute(db);
  await sql`checkpoint`.execute(db);
}
