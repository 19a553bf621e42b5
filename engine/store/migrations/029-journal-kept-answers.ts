import { sql, type Kysely } from "kysely";

/**
 * Idempotency keys ride in the journal (decision 017, "the steps after" 2): an accepted command
 * asked with a key carries the key and its first answer in its journal row (`kept`, JSON), so a
 * replay after a crash knows the key again; the key's `idempotency_key` row is written by the
 * projector behind the answer. Keys are answered for a window (24 h) and the older rows are
 * pruned with the journal: `created_at` is indexed for that and for the start's load of recent keys.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table command_journal add column if not exists kept text`.execute(db);
  await sql`create index if not exists idempotency_key_created on idempotency_key (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists idempotency_key_created`.execute(db);
  await sql`alter table command_journal drop column if exists kept`.execute(db);
}
