import { sql, type Kysely } from "kysely";

/**
 * A member's margin orders, newest first (the orders area's margin-all and margin-fixed pages,
 * issue 31): few beside their spot orders, so a partial index finds them without walking the
 * spot ones. The queries' account predicates (`= 'margin'`, `like 'margin:%'`) imply its
 * `account is not null`. NOTE: on a large live database, create it `concurrently` by hand first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists spot_order_member_margin on spot_order (member_id, seq desc) where account is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists spot_order_member_margin`.execute(db);
}
