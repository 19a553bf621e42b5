import { sql, type Kysely } from "kysely";

/**
 * The command journal and core snapshots (decision 017). Every accepted command is a row, its
 * sequence number the key, written in the same transaction as the rows it changed; a snapshot is
 * the whole core as JSON at one sequence number, with the SHA-256 of that text to check it on load.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists command_journal (
      seq bigint primary key,
      at timestamptz not null,
      command text not null
    )`.execute(db);
  await sql`
    create table if not exists core_snapshot (
      seq bigint primary key,
      checksum varchar(64) not null,
      created_at timestamptz not null default now(),
      data text not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists core_snapshot`.execute(db);
  await sql`drop table if exists command_journal`.execute(db);
}
