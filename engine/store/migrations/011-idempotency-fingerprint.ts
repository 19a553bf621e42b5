import { sql, type Kysely } from "kysely";

/**
 * What each idempotency key was first used for (issue 9, "retries tell the truth"): a retry of the
 * same request gets the first answer; the same key with a different request is refused as reused.
 * Rows written before this migration have none and are treated as matching.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_key add column if not exists fingerprint text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_key drop column if exists fingerprint`.execute(db);
}
