import { sql, type Kysely } from "kysely";

/**
 * An order's hold is a column of its row (decision 017, step 13): what its held funds still are
 * after the last command that touched it, in the asset it pays with (0 once it ended). Before,
 * each order's hold was a row of `ledger_hold` (`hold:<order id>`) inserted, updated and deleted
 * beside the order's own row, and its opening, payments and release were rows of
 * `ledger_transfer`; those are no longer written (the order and its trades are the facts). The
 * open orders' holds move into the column; the rows of holds that are gone stay as history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table spot_order add column if not exists held numeric(38, 18)`.execute(db);
  await sql`
    update spot_order o set held = h.remaining
    from ledger_hold h
    where h.id = 'hold:' || o.order_id`.execute(db);
  await sql`delete from ledger_hold where id like 'hold:%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into ledger_hold (id, account_id, asset, remaining)
    select 'hold:' || o.order_id,
      o.member_id || '/spot/' || case when o.side = 'buy' then m.quote_symbol else m.coin_symbol end,
      case when o.side = 'buy' then m.quote_symbol else m.coin_symbol end,
      o.held
    from spot_order o join market_symbol m on m.symbol_name = o.symbol
    where o.held > 0 and o.status in ('open', 'waiting')
    on conflict (id) do nothing`.execute(db);
  await sql`alter table spot_order drop column if exists held`.execute(db);
}
