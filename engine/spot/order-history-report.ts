import { pageOf, type Page, type Paging } from "../store/paging";
import { sql, type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder } from "kysely";
import { FINAL_ORDER_STATUSES, type HistoryFilter, type OrderAccount } from "../../protocol/endpoints/order-history";
import { canonicalDecimal, dayRange, feeCoinOf, memberTrade, type ExportOrder, type MemberTrade, type StoredTrade } from "../core/spot/order-history-view";
import type { Database, SpotOrderTable, SpotTradeTable } from "../store/schema";

/**
 * Read models of a member's spot orders and trades (docs/decisions/010-spot-order-history-api.md).
 * Every query starts from the member: `spot_order_member*` and `spot_trade_buyer`/`_seller`
 * (migration 010) keep them index scans. Aggregates (filled value, fees, average price) are
 * NUMERIC arithmetic in the database; nothing here turns an amount into a JS number.
 */
export type OrderScope = "current" | "history";

export type { Page, Paging } from "../store/paging";

// Kysely's type of a query with nothing selected yet is `{}`.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type OrderQuery = SelectQueryBuilder<Database & { o: SpotOrderTable }, "o", {}>;

const FINAL = [...FINAL_ORDER_STATUSES];

/**
 * Whether an order's `account` column (null: spot; `margin`: cross; `margin:BTC/USDT`: isolated)
 * is of the account asked for. Margin orders are found through `spot_order_member_margin`
 * (migration 043), whose predicate `account is not null` these imply.
 */
function accountIs(column: string, account: OrderAccount): RawBuilder<boolean> {
  const ref = sql.ref(column);
  if (account === "spot") return sql<boolean>`${ref} is null`;
  if (account === "all") return sql<boolean>`${ref} = 'margin'`;
  return sql<boolean>`${ref} like 'margin:%'`;
}

/** The account of an order row as the member sees it. */
function accountOf(column: string | null): OrderAccount {
  return column === null ? "spot" : column === "margin" ? "all" : "fixed";
}

/** The member's orders of one scope matching the filter (no columns selected yet). */
function ordersOf(db: Kysely<Database>, memberId: string, scope: OrderScope, filter: HistoryFilter): OrderQuery {
  const { start, end } = dayRange(filter.from, filter.to);
  // NOTE: `current` repeats the predicate of the partial index spot_order_member_open word for word.
  return db
    .selectFrom("spot_order as o")
    .where("o.member_id", "=", memberId)
    .where("o.status", scope === "current" ? "not in" : "in", FINAL)
    .$if(filter.account !== undefined, (q) => q.where(accountIs("o.account", filter.account!)))
    .$if(filter.symbol !== undefined, (q) => q.where("o.symbol", "=", filter.symbol!))
    .$if(filter.side !== undefined, (q) => q.where("o.side", "=", filter.side!))
    .$if(start !== undefined, (q) => q.where("o.created_at", ">=", start!))
    .$if(end !== undefined, (q) => q.where("o.created_at", "<", end!));
}

interface OrderRow {
  seq: string;
  order_id: string;
  symbol: string;
  account: string | null;
  side: string;
  type: string;
  tif: string;
  status: string;
  reason: string | null;
  price: string | null;
  stop_profit_price: string | null;
  stop_loss_price: string | null;
  triggered_by: string | null;
  client_order_id: string | null;
  quantity: string | null;
  money: string | null;
  filled: string;
  trades: number;
  filled_value: string;
  fee: string;
  avg_price: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * The order columns plus what its trades add up to. An order's trades are the ones it took
 * (taker) plus the ones it made (maker); the average price is their value over their amount,
 * cut (never rounded up) to the quote coin's decimals.
 */
function withFigures(query: OrderQuery) {
  return (
    query
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom(
              eb
                .selectFrom("spot_trade")
                .select(["quantity", "value", "buyer_fee", "seller_fee"])
                .whereRef("taker_order_id", "=", "o.order_id")
                .unionAll(eb.selectFrom("spot_trade").select(["quantity", "value", "buyer_fee", "seller_fee"]).whereRef("maker_order_id", "=", "o.order_id"))
                .as("t"),
            )
            .select([
              sql<number>`count(*)::int`.as("trades"),
              sql<string>`coalesce(sum(t.quantity), 0)`.as("qty"),
              sql<string>`coalesce(sum(t.value), 0)`.as("filled_value"),
              sql<string>`coalesce(sum(case when o.side = 'buy' then t.buyer_fee else t.seller_fee end), 0)`.as("fee"),
            ])
            .as("f"),
        (join) => join.onTrue(),
      )
      // The quote coin's decimals cut the average price.
      .leftJoin("asset as qa", (join) => join.on(sql<boolean>`qa.code = split_part(o.symbol, '/', 2)`))
      .select([
        "o.seq",
        "o.order_id",
        "o.symbol",
        "o.account",
        "o.side",
        "o.type",
        "o.tif",
        "o.status",
        "o.reason",
        // A waiting stop has no price yet: show the limit it will enter the book at (null: at market).
        sql<string | null>`coalesce(o.price, o.trigger_price)`.as("price"),
        "o.stop_profit_price",
        "o.stop_loss_price",
        "o.triggered_by",
        "o.client_order_id",
        "o.quantity",
        "o.money",
        "o.filled",
        "o.created_at",
        "o.updated_at",
        "f.trades",
        "f.filled_value",
        "f.fee",
        sql<string | null>`case when f.qty > 0 then trunc(f.filled_value / f.qty, coalesce(qa.scale, 18)) end`.as("avg_price"),
      ])
  );
}

function toOrderView(row: OrderRow): ExportOrder {
  const side = row.side === "sell" ? "sell" : "buy";
  const decimal = (v: string | null) => (v === null ? null : canonicalDecimal(v));
  return {
    orderId: row.order_id,
    symbol: row.symbol,
    account: accountOf(row.account),
    side,
    type: row.type,
    tif: row.tif,
    status: row.status,
    reason: row.reason,
    price: decimal(row.price),
    stopProfitPrice: decimal(row.stop_profit_price),
    stopLossPrice: decimal(row.stop_loss_price),
    triggeredBy: row.triggered_by,
    clientOrderId: row.client_order_id,
    quantity: decimal(row.quantity),
    money: decimal(row.money),
    filled: canonicalDecimal(row.filled),
    filledValue: canonicalDecimal(row.filled_value),
    avgPrice: decimal(row.avg_price),
    fee: canonicalDecimal(row.fee),
    feeCoin: feeCoinOf(row.symbol, side),
    trades: row.trades,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- as in OrderQuery
async function countOf(query: OrderQuery | SelectQueryBuilder<Database, "spot_trade", {}>): Promise<number> {
  const row = await (query as OrderQuery).select(sql<number>`count(*)::int`.as("n")).executeTakeFirst();
  return row?.n ?? 0;
}

/** One page of the member's orders, newest first. */
export async function listOrders(db: Kysely<Database>, memberId: string, scope: OrderScope, filter: HistoryFilter, paging: Paging): Promise<Page<ExportOrder>> {
  const base = ordersOf(db, memberId, scope, filter);
  const total = await countOf(base);
  const rows = (await withFigures(base)
    .orderBy("o.seq", "desc")
    .limit(paging.pageSize)
    .offset((paging.pageNo - 1) * paging.pageSize)
    .execute()) as OrderRow[];
  return pageOf(rows.map(toOrderView), total, paging);
}

/** One of the member's orders, or undefined when there is none with this id (or it is someone else's). */
export async function findOrder(db: Kysely<Database>, memberId: string, orderId: string): Promise<ExportOrder | undefined> {
  const row = (await withFigures(db.selectFrom("spot_order as o").where("o.member_id", "=", memberId).where("o.order_id", "=", orderId)).executeTakeFirst()) as
    OrderRow | undefined;
  return row && toOrderView(row);
}

const TRADE_COLUMNS = [
  "id",
  "symbol",
  "taker_order_id",
  "maker_order_id",
  "buyer",
  "seller",
  "price",
  "quantity",
  "value",
  "buyer_fee",
  "seller_fee",
  "taker_side",
  "created_at",
] as const;

type TradeRow = Selectable<SpotTradeTable>;

function toStoredTrade(r: TradeRow): StoredTrade {
  return {
    id: String(r.id),
    symbol: r.symbol,
    takerOrderId: r.taker_order_id,
    makerOrderId: r.maker_order_id,
    buyer: String(r.buyer),
    seller: String(r.seller),
    price: r.price,
    quantity: r.quantity,
    value: r.value,
    buyerFee: r.buyer_fee,
    sellerFee: r.seller_fee,
    takerSide: r.taker_side,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** The member's trades on one side (buyer or seller) matching the filter. */
function tradesOnSide(db: Kysely<Database>, memberId: string, side: "buy" | "sell", filter: HistoryFilter) {
  const { start, end } = dayRange(filter.from, filter.to);
  return (
    db
      .selectFrom("spot_trade")
      .where(side === "buy" ? "buyer" : "seller", "=", memberId)
      .$if(filter.symbol !== undefined, (q) => q.where("symbol", "=", filter.symbol!))
      // The member's order in the trade (never both: self-trades are prevented) is on that account.
      .$if(filter.account !== undefined, (q) =>
        q.where(
          sql<boolean>`exists (select 1 from spot_order mo where mo.order_id in (spot_trade.taker_order_id, spot_trade.maker_order_id) and mo.member_id = ${memberId} and ${accountIs("mo.account", filter.account!)})`,
        ),
      )
      .$if(start !== undefined, (q) => q.where("created_at", ">=", start!))
      .$if(end !== undefined, (q) => q.where("created_at", "<", end!))
  );
}

function sidesOf(filter: HistoryFilter): Array<"buy" | "sell"> {
  return filter.side ? [filter.side] : ["buy", "sell"];
}

/**
 * The member's trades, newest first: `take` rows after `skip`, below `beforeId` when given (keyset).
 * Each side reads only its newest `skip + take` rows from its index before the two are merged, so a member
 * with millions of trades costs a page, not a sort of everything.
 */
function tradeRows(db: Kysely<Database>, memberId: string, filter: HistoryFilter, page: { take: number; skip?: number; beforeId?: string }) {
  const { take, skip = 0, beforeId } = page;
  const branches = sidesOf(filter).map((side) =>
    db
      .selectFrom(
        tradesOnSide(db, memberId, side, filter)
          .$if(beforeId !== undefined, (q) => q.where("id", "<", beforeId!))
          .select([...TRADE_COLUMNS])
          .orderBy("id", "desc")
          .limit(skip + take)
          .as("b"),
      )
      .selectAll(),
  );
  const union = branches.length === 1 ? branches[0]! : branches[0]!.unionAll(branches[1]!);
  return db.selectFrom(union.as("x")).selectAll().orderBy("id", "desc").limit(take).offset(skip);
}

export async function countTrades(db: Kysely<Database>, memberId: string, filter: HistoryFilter): Promise<number> {
  let total = 0;
  for (const side of sidesOf(filter)) total += await countOf(tradesOnSide(db, memberId, side, filter));
  return total;
}

/** One page of the member's trades, newest first. */
export async function listTrades(db: Kysely<Database>, memberId: string, filter: HistoryFilter, paging: Paging): Promise<Page<MemberTrade>> {
  const total = await countTrades(db, memberId, filter);
  const rows = (await tradeRows(db, memberId, filter, { take: paging.pageSize, skip: (paging.pageNo - 1) * paging.pageSize }).execute()) as TradeRow[];
  return pageOf(
    rows.map((r) => memberTrade(memberId, toStoredTrade(r))),
    total,
    paging,
  );
}

/** The trades of one order (the caller has checked it is the member's), in the order they happened. */
export async function tradesOfOrder(db: Kysely<Database>, memberId: string, orderId: string, paging: Paging): Promise<Page<MemberTrade>> {
  const taken = db.selectFrom("spot_trade").where("taker_order_id", "=", orderId);
  const made = db.selectFrom("spot_trade").where("maker_order_id", "=", orderId);
  const total = (await countOf(taken)) + (await countOf(made));
  const rows = (await db
    .selectFrom(
      taken
        .select([...TRADE_COLUMNS])
        .unionAll(made.select([...TRADE_COLUMNS]))
        .as("x"),
    )
    .selectAll()
    .orderBy("id", "asc")
    .limit(paging.pageSize)
    .offset((paging.pageNo - 1) * paging.pageSize)
    .execute()) as TradeRow[];
  return pageOf(
    rows.map((r) => memberTrade(memberId, toStoredTrade(r))),
    total,
    paging,
  );
}

/**
 * The symbols the member has orders in, sorted. A loose index scan (one index probe per symbol on
 * spot_order_member_symbol), so a member with millions of orders in a few markets costs a few probes.
 */
export async function orderSymbols(db: Kysely<Database>, memberId: string): Promise<string[]> {
  const result = await sql<{ symbol: string }>`
    with recursive s(symbol) as (
      (select symbol from spot_order where member_id = ${memberId} order by symbol limit 1)
      union all
      select (select o.symbol from spot_order o where o.member_id = ${memberId} and o.symbol > s.symbol order by o.symbol limit 1)
      from s where s.symbol is not null
    )
    select symbol from s where symbol is not null
  `.execute(db);
  return result.rows.map((r) => r.symbol);
}

export async function countOrders(db: Kysely<Database>, memberId: string, scope: OrderScope, filter: HistoryFilter): Promise<number> {
  return countOf(ordersOf(db, memberId, scope, filter));
}

const BATCH = 1000;

/** Every matching order, newest first, read in keyset batches (for the export stream). */
export async function* eachOrder(db: Kysely<Database>, memberId: string, scope: OrderScope, filter: HistoryFilter): AsyncGenerator<ExportOrder> {
  let before: string | undefined;
  for (;;) {
    const rows = (await withFigures(ordersOf(db, memberId, scope, filter).$if(before !== undefined, (q) => q.where("o.seq", "<", before!)))
      .orderBy("o.seq", "desc")
      .limit(BATCH)
      .execute()) as OrderRow[];
    for (const row of rows) yield toOrderView(row);
    if (rows.length < BATCH) return;
    before = rows[rows.length - 1]!.seq;
  }
}

/** Every matching trade, newest first, read in keyset batches (for the export stream). */
export async function* eachTrade(db: Kysely<Database>, memberId: string, filter: HistoryFilter): AsyncGenerator<MemberTrade> {
  let before: string | undefined;
  for (;;) {
    const rows = (await tradeRows(db, memberId, filter, { take: BATCH, beforeId: before }).execute()) as TradeRow[];
    for (const row of rows) yield memberTrade(memberId, toStoredTrade(row));
    if (rows.length < BATCH) return;
    before = String(rows[rows.length - 1]!.id);
  }
}
