import { sql, type Kysely } from "kysely";

/**
 * A member's margin mode in each contract (issue 30, decision 049): isolated (the default) or
 * cross, kept beside their leverage in it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table contract_leverage add column margin_mode varchar(8) not null default 'isolated' check (margin_mode in ('isolated', 'cross'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table contract_leverage drop column margin_mode`.execute(db);
}
