import { sql, type Kysely } from "kysely";

/**
 * Only the transfers that come from outside need their id checked for uniqueness in the
 * database (decision 017, step 10): deposits and transfers between a member's accounts (phase
 * `posted`), whose ids the caller chose and a retry repeats. The ids the core makes — holds
 * (`hold:<order>`), their releases, settlement posts (`s<seq>.<n>`) — are unique by
 * construction, and were most of the index's entries: four to six per trade. The table keeps its
 * primary key (`seq`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_transfer drop constraint if exists ledger_transfer_id_key`.execute(db);
  await sql`create unique index if not exists ledger_transfer_outside_id on ledger_transfer (id) where phase = 'posted'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists ledger_transfer_outside_id`.execute(db);
  await sql`alter table ledger_transfer add constraint ledger_transfer_id_key unique (id)`.execute(db);
}
