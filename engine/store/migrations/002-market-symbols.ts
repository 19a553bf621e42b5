import { sql, type Kysely } from "kysely";

/**
 * Listed symbols. The spot issue adds books, trades and tickers; until a symbol trades its ticker
 * is empty. `price_scale` and `amount_scale` default to the spec's coin scales (8).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table market_symbol (
      id serial primary key,
      symbol_name varchar(40) not null unique,
      coin_symbol varchar(20) not null,
      quote_symbol varchar(20) not null,
      contract_type smallint not null default 0 check (contract_type between 0 and 2),
      price_scale smallint not null default 8,
      amount_scale smallint not null default 8,
      avatar varchar(300),
      sort integer not null default 0,
      enabled boolean not null default true
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table market_symbol`.execute(db);
}
