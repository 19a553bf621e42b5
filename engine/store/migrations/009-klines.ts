import { sql, type Kysely } from "kysely";

/**
 * K-lines per symbol and period, written in the same transaction as the trades they count (so a
 * crash never leaves a candle ahead of or behind its trades). `open_time` is epoch ms (UTC).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table spot_kline (
      symbol varchar(40) not null,
      period varchar(4) not null,
      open_time bigint not null,
      open numeric(38, 18) not null,
      high numeric(38, 18) not null,
      low numeric(38, 18) not null,
      close numeric(38, 18) not null,
      volume numeric(38, 18) not null,
      turnover numeric(38, 18) not null,
      primary key (symbol, period, open_time)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table spot_kline`.execute(db);
}
