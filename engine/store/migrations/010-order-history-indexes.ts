import { sql, type Kysely } from "kysely";

/**
 * Indexes of a member's order history (docs/decisions/010-spot-order-history-api.md):
 * - open orders of a member, newest first, without walking their finished ones (the predicate is
 *   repeated word for word by the query, see engine/spot/order-history-report.ts);
 * - a member's orders in one market, and the loose index scan of the markets they traded;
 * - a member's trades as buyer and as seller, newest first;
 * - the trades of one order, as taker and as maker.
 * NOTE: on a large live database, create these `concurrently` by hand first; `if not exists`
 * then makes this migration a no-op (a migration runs inside a transaction, where
 * `concurrently` is not allowed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists spot_order_member_open on spot_order (member_id, seq desc) where status not in ('filled', 'cancelled');
    create index if not exists spot_order_member_symbol on spot_order (member_id, symbol, seq desc);
    create index if not exists spot_trade_buyer on spot_trade (buyer, id desc);
    create index if not exists spot_trade_seller on spot_trade (seller, id desc);
    create index if not exists spot_trade_taker_order on spot_trade (taker_order_id);
    create index if not exists spot_trade_maker_order on spot_trade (maker_order_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists spot_order_member_open, spot_order_member_symbol, spot_trade_buyer, spot_trade_seller,
      spot_trade_taker_order, spot_trade_maker_order;
  `.execute(db);
}
