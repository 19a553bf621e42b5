import { sql, type Kysely } from "kysely";

/**
 * A market can be halted by an operator (issue 9): new orders are refused, cancels still work,
 * the book stays as it is. Kept on the market's row so that a restart keeps it halted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table market_symbol add column if not exists halted boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table market_symbol drop column if exists halted`.execute(db);
}
