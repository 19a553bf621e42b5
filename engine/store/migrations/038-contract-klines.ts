import { sql, type Kysely } from "kysely";

/**
 * K-lines of each perpetual contract (issue 30): of its last trade price (`source` last: volume in
 * contracts, turnover in the settlement coin) and of its mark price (`source` mark: the price
 * loop's samples, no volume). Written in the same transaction as the commands they count, as
 * spot's are (`spot_kline`, migration 009). `open_time` is epoch ms (UTC).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contract_kline (
      symbol varchar(40) not null,
      source varchar(4) not null check (source in ('last', 'mark')),
      period varchar(4) not null,
      open_time bigint not null,
      open numeric(38, 18) not null,
      high numeric(38, 18) not null,
      low numeric(38, 18) not null,
      close numeric(38, 18) not null,
      volume numeric(38, 18) not null,
      turnover numeric(38, 18) not null,
      primary key (symbol, source, period, open_time)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table contract_kline`.execute(db);
}
