import { sql, type Kysely } from "kysely";

/**
 * Where each projection stands (decision 017, step 3): the query tables (orders, trades, ledger
 * rows) are written behind the answer, and `seq` is the last journal command they include,
 * committed in the same transaction as their rows. An install from before this step wrote those
 * tables with the journal, so they already include every journaled command.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists projection_cursor (
      name varchar(32) primary key,
      seq bigint not null
    )`.execute(db);
  await sql`
    insert into projection_cursor (name, seq)
    select 'spot', coalesce(max(seq), 0) from command_journal
    on conflict (name) do nothing`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists projection_cursor`.execute(db);
}
