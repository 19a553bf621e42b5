import { sql, type Kysely } from "kysely";

/**
 * Members' favourite symbols (spec §7 "Market": quotes/getOptional, addOptional, cancelOptional).
 * One row per member and symbol, so adding twice is harmless; a delisted symbol takes its rows along.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table member_favourite (
      member_id bigint not null references member (id) on delete cascade,
      symbol varchar(40) not null references market_symbol (symbol_name) on update cascade on delete cascade,
      created_at timestamptz not null default now(),
      primary key (member_id, symbol)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table member_favourite`.execute(db);
}
