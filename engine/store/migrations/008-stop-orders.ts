import { sql, type Kysely } from "kysely";

/**
 * Stop (plan) orders (docs/decisions/009-stop-orders.md). A stop order is a `spot_order` row with
 * status `waiting` until the last price reaches its stop-profit or stop-loss price; it then
 * becomes open, filled or cancelled like any order, keeping its id.
 * - `trigger_price`: the spec's triggerMoney, the limit price it enters the book at once fired
 *   (null: at market). `price` stays null while it waits and takes this value when it fires.
 * - `triggered_by`: which trigger fired it (profit or loss); `triggered_at`: when.
 * - `triggered_seq`: its time priority on the book, taken from the order sequence when it fired
 *   (a restart puts open orders back in `coalesce(triggered_seq, seq)` order).
 * The waiting stops of a symbol are read at start through a partial index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table spot_order
      add column stop_profit_price numeric(38, 18),
      add column stop_loss_price numeric(38, 18),
      add column trigger_price numeric(38, 18),
      add column triggered_by varchar(6),
      add column triggered_at timestamptz,
      add column triggered_seq bigint;
    create index spot_order_waiting on spot_order (symbol, seq) where status = 'waiting';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index spot_order_waiting;
    alter table spot_order drop column stop_profit_price, drop column stop_loss_price, drop column trigger_price,
      drop column triggered_by, drop column triggered_at, drop column triggered_seq;
  `.execute(db);
}
