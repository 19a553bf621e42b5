import { sql, type Kysely } from "kysely";

/**
 * Contracts' conditional orders (issue 30, decision 048): stop orders and positions' take profit
 * and stop loss, waiting for the mark or the last price. A row is written when one starts to wait
 * and updated when it ends: `triggered` (its order, under the same id, is in `contract_order`),
 * `failed` (it fired and its order was refused: `reason` is the refusal's code) or `cancelled`.
 * `quantity` is null for a take profit and stop loss (the whole position); `profit_price` and
 * `loss_price` are its triggers (a stop order has the one on its side of the price it watched).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contract_stop (
      stop_id varchar(64) primary key,
      seq bigint not null,
      member_id varchar(40) not null,
      symbol varchar(40) not null,
      side varchar(4) not null,
      action varchar(5) not null,
      type varchar(6) not null,
      tif varchar(10) not null,
      price numeric(38, 18),
      quantity bigint,
      trigger_by varchar(4) not null check (trigger_by in ('mark', 'last')),
      profit_price numeric(38, 18),
      loss_price numeric(38, 18),
      status varchar(10) not null,
      reason varchar(40),
      fired_price numeric(38, 18),
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index contract_stop_member on contract_stop (member_id, seq desc);
    create index contract_stop_waiting on contract_stop (symbol, seq) where status = 'waiting';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table contract_stop`.execute(db);
}
