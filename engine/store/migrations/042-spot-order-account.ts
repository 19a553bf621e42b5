import { sql, type Kysely } from "kysely";

/**
 * The account a spot order trades from when it is not the member's spot account (issue 31,
 * decision 050): a margin account's kind (`margin`, `margin:BTC/USDT`); null for the spot account.
 * A start from the tables restores each open order's hold on that account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table spot_order add column account varchar(60)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table spot_order drop column account`.execute(db);
}
