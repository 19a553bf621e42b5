import { pageOf } from "../store/paging";
import { sql, type Kysely, type RawBuilder } from "kysely";
import { ACCOUNTS } from "../../protocol/accounts";
import { BILLS_COUNT_MAX, type BillFilter, type BillLineView } from "../../protocol/endpoints/bills";
import { EXPORT_MAX_ROWS, HISTORY_PAGE_SIZE_DEFAULT } from "../../protocol/endpoints/order-history";
import { ResultCode } from "../../protocol/result-codes";
import type { LanguageCode } from "../../protocol/languages";
import { BILL_CSV_COLUMNS, billCsvFields, billsFilename, tradeLines, transferLine, type BillLine } from "../core/reports/bill-lines";
import { csvRecord } from "../core/reports/csv";
import { dayRange } from "../core/spot/order-history-view";
import { engineText } from "../locales/engine-texts";
import { Refusal } from "../locales/refusal";
import type { CsvExport, PageRequest, ProjectionWait } from "../spot/order-history-service";
import type { Database } from "../store/schema";

/**
 * A member's bills (spec §7 `assets/getMyBill`; docs/decisions/026-bills.md): every change of
 * one of their posted balances as a line, newest first, over the projections, after the
 * projection wait (a member reads back what they were just answered).
 *
 * Four sources, each read newest first from its own index and merged by time:
 * - `debit`/`credit`: ledger transfers whose debit (credit) account is the member's, except a
 *   spot order's hold rows, by the partial indexes `ledger_transfer_bill_debit|credit`
 *   (migration 020; the predicate below repeats theirs word for word);
 * - `buyer`/`seller`: the member's trades, by `spot_trade_buyer|seller` (migration 010).
 * Classification is `engine/core/reports/bill-lines.ts`; here each source's rows are narrowed in
 * SQL so that every row read gives at least one line of the filter: a page of N lines never
 * needs more than skip + N rows of any source.
 */

type Source = "debit" | "credit" | "buyer" | "seller";
const SOURCES: readonly Source[] = ["debit", "credit", "buyer", "seller"];

/** The partial indexes' predicate, word for word (migration 020). */
const NOT_AN_ORDER_HOLD = sql.raw(`phase in ('posted', 'post') and coalesce(pending_id, id) not like 'hold:%'`);

interface LedgerRow {
  key: string;
  id: string;
  phase: string;
  debit: string;
  credit: string | null;
  asset: string;
  amount: string;
  pending_id: string | null;
  created_at: Date | string;
}

interface TradeRow {
  key: string;
  symbol: string;
  taker_order_id: string;
  maker_order_id: string;
  buyer: string;
  seller: string;
  taker_side: string;
  quantity: string;
  value: string;
  buyer_fee: string;
  seller_fee: string;
  created_at: Date | string;
}

/** A line with where it came from, to merge the sources in one order. */
interface Sorted {
  line: BillLine;
  at: number;
  rank: number;
  key: bigint;
  part: number;
}

const iso = (at: Date | string) => new Date(at).toISOString();

/** Newest first; one instant: by source, then newest row, then the parts of a trade in order. */
function compare(a: Sorted, b: Sorted): number {
  if (a.at !== b.at) return b.at - a.at;
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.key !== b.key) return a.key > b.key ? -1 : 1;
  return a.part - b.part;
}

function sourceUsed(source: Source, filter: BillFilter): boolean {
  const trades = source === "buyer" || source === "seller";
  if (filter.account !== undefined && trades && ACCOUNTS[filter.account] !== "spot") return false;
  if (filter.type === undefined) return true;
  if (trades) return filter.type === "trade" || filter.type === "trade_fee";
  if (source === "debit") return ["withdrawal", "withdrawal_fee", "transfer_out", "other"].includes(filter.type);
  return ["deposit", "transfer_in", "other"].includes(filter.type);
}

/** The SQL narrowing of one ledger source: rows that give a line of the filter on the member's side. */
function ledgerWhere(source: "debit" | "credit", memberId: string, filter: BillFilter) {
  const mine = sql.raw(source);
  const other = sql.raw(source === "debit" ? "credit" : "debit");
  const { start, end } = dayRange(filter.from, filter.to);
  const parts = [sql`split_part(${mine}, '/', 1) = ${memberId}`, NOT_AN_ORDER_HOLD];
  if (filter.coin !== undefined) parts.push(sql`asset = ${filter.coin}`);
  if (filter.account !== undefined) parts.push(sql`split_part(${mine}, '/', 2) = ${ACCOUNTS[filter.account]}`);
  if (start) parts.push(sql`created_at >= ${start}`);
  if (end) parts.push(sql`created_at < ${end}`);
  const own = sql`split_part(${other}, '/', 1) = ${memberId}`;
  const external = sql`${other} like '@system/external/%'`;
  const withdrawalFee = sql`(${other} like '@system/fees/%' and pending_id like 'wd:%')`;
  switch (filter.type) {
    case "deposit":
    case "withdrawal":
      parts.push(external);
      break;
    case "withdrawal_fee":
      parts.push(withdrawalFee);
      break;
    case "transfer_in":
    case "transfer_out":
      parts.push(own);
      break;
    case "other":
      parts.push(source === "debit" ? sql`not (${own} or ${external} or ${withdrawalFee})` : sql`not (${own} or ${external})`);
      break;
  }
  return sql.join(parts, sql` and `);
}

/**
 * The markets a coin filter reaches: those with the coin as base and as quote. The trade sources
 * name them (`symbol in (…)`) rather than cut the symbol apart: the planner estimates a list of
 * symbols from the column's statistics, but guessed `split_part(symbol, …) = …` at 0.5 % of the
 * rows and read a heavy trader's every trade to find "so few" (caught by the plan test).
 */
export interface CoinMarkets {
  base: string[];
  quote: string[];
}

/** The SQL narrowing of one trade source. */
function tradeWhere(source: "buyer" | "seller", memberId: string, filter: BillFilter, markets?: CoinMarkets) {
  const { start, end } = dayRange(filter.from, filter.to);
  const parts = [sql`${sql.raw(source)} = ${memberId}`];
  if (filter.type === "trade_fee") parts.push(sql.raw(source === "buyer" ? "buyer_fee > 0" : "seller_fee > 0"));
  if (filter.coin !== undefined) {
    // A fee is paid in the coin received: the base by a buyer, the quote by a seller.
    const symbols = filter.type === "trade_fee" ? (source === "buyer" ? markets?.base : markets?.quote) : [...(markets?.base ?? []), ...(markets?.quote ?? [])];
    parts.push(symbols?.length ? sql`symbol in (${sql.join(symbols)})` : sql`false`);
  }
  if (start) parts.push(sql`created_at >= ${start}`);
  if (end) parts.push(sql`created_at < ${end}`);
  return sql.join(parts, sql` and `);
}

/** Newest `limit` rows of one source, below `before` (its key) when given. */
function sourceRows(
  source: Source,
  memberId: string,
  filter: BillFilter,
  markets: CoinMarkets | undefined,
  limit: number,
  before?: string,
): RawBuilder<LedgerRow | TradeRow> {
  if (source === "debit" || source === "credit") {
    const below = before === undefined ? sql`` : sql` and seq < ${before}`;
    return sql<LedgerRow>`select seq::text as key, id, phase, debit, credit, asset, amount::text as amount, pending_id, created_at
      from ledger_transfer where ${ledgerWhere(source, memberId, filter)}${below} order by seq desc limit ${limit}`;
  }
  const below = before === undefined ? sql`` : sql` and id < ${before}`;
  return sql<TradeRow>`select id::text as key, symbol, taker_order_id, maker_order_id, buyer::text as buyer, seller::text as seller, taker_side,
      quantity::text as quantity, value::text as value, buyer_fee::text as buyer_fee, seller_fee::text as seller_fee, created_at
    from spot_trade where ${tradeWhere(source, memberId, filter, markets)}${below} order by id desc limit ${limit}`;
}

/** The lines of the filter that one source row gives. */
function linesOf(source: Source, memberId: string, filter: BillFilter, row: LedgerRow | TradeRow): Sorted[] {
  const rank = SOURCES.indexOf(source);
  const key = BigInt(row.key);
  const at = new Date(row.created_at).getTime();
  let lines: BillLine[];
  if (source === "debit" || source === "credit") {
    const r = row as LedgerRow;
    const transfer = { ...r, pendingId: r.pending_id, createdAt: iso(r.created_at) };
    const line = transferLine(memberId, transfer, source);
    lines = line ? [line] : [];
  } else {
    const r = row as TradeRow;
    lines = tradeLines(memberId, {
      id: r.key,
      symbol: r.symbol,
      takerOrderId: r.taker_order_id,
      makerOrderId: r.maker_order_id,
      buyer: r.buyer,
      seller: r.seller,
      takerSide: r.taker_side,
      quantity: r.quantity,
      value: r.value,
      buyerFee: r.buyer_fee,
      sellerFee: r.seller_fee,
      createdAt: iso(r.created_at),
    });
  }
  return lines
    .filter(
      (l) =>
        (filter.coin === undefined || l.coin === filter.coin) &&
        (filter.type === undefined || l.type === filter.type) &&
        (filter.account === undefined || l.accountCode === filter.account),
    )
    .map((line, part) => ({ line, at, rank, key, part }));
}

/**
 * How many lines of the filter a source's rows give, counted in SQL, over at most `cap` + 1 rows.
 * In the page's order: without it a planner that expects fewer matching rows than the cap may
 * read the whole table to find them.
 */
function countSql(source: Source, memberId: string, filter: BillFilter, markets: CoinMarkets | undefined, cap: number) {
  if (source === "debit" || source === "credit") {
    return sql<{ lines: string; rows: string }>`select count(*)::text as lines, count(*)::text as rows
      from (select 1 from ledger_transfer where ${ledgerWhere(source, memberId, filter)} order by seq desc limit ${cap + 1}) x`;
  }
  const coin = filter.coin ?? "";
  const any = filter.coin === undefined;
  const base = any ? sql`1` : sql`(split_part(symbol, '/', 1) = ${coin})::int`;
  const quote = any ? sql`1` : sql`(split_part(symbol, '/', 2) = ${coin})::int`;
  const fee = sql.raw(source === "buyer" ? "(buyer_fee > 0)::int" : "(seller_fee > 0)::int");
  const feeCoin = source === "buyer" ? base : quote;
  const perRow = filter.type === "trade_fee" ? sql`1` : filter.type === "trade" ? sql`${base} + ${quote}` : sql`${base} + ${quote} + ${fee} * ${feeCoin}`;
  return sql<{ lines: string; rows: string }>`select coalesce(sum(n), 0)::text as lines, count(*)::text as rows
    from (select ${perRow} as n from spot_trade where ${tradeWhere(source, memberId, filter, markets)} order by id desc limit ${cap + 1}) x`;
}

export interface BillPage {
  records: BillLineView[];
  total: number;
  /** More lines match than `total` counts (BILLS_COUNT_MAX). */
  more: boolean;
  size: number;
  current: number;
  pages: number;
}

const view = ({ line }: Sorted): BillLineView => ({ ...line });

export class BillService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly projection: ProjectionWait,
  ) {}

  /** One page of the member's lines, newest first; `total` counts up to BILLS_COUNT_MAX. */
  async lines(memberId: string, query: BillFilter & PageRequest): Promise<BillPage> {
    await this.projection.projectedFor(memberId);
    const { pageNo = 1, pageSize = HISTORY_PAGE_SIZE_DEFAULT, ...filter } = query;
    const skip = (pageNo - 1) * pageSize;
    const sources = SOURCES.filter((s) => sourceUsed(s, filter));
    const markets = await this.marketsOf(filter);
    const [counted, batches] = await Promise.all([
      this.count(memberId, filter, BILLS_COUNT_MAX, markets),
      Promise.all(
        sources.map(async (s) =>
          (await sourceRows(s, memberId, filter, markets, skip + pageSize).execute(this.db)).rows.flatMap((r) => linesOf(s, memberId, filter, r)),
        ),
      ),
    ]);
    const records = batches
      .flat()
      .sort(compare)
      .slice(skip, skip + pageSize)
      .map(view);
    const total = Math.min(counted, BILLS_COUNT_MAX);
    return { ...pageOf(records, total, { pageNo, pageSize }), more: counted > BILLS_COUNT_MAX };
  }

  /** The markets of the filter's coin (none without a coin filter). */
  async marketsOf(filter: BillFilter): Promise<CoinMarkets | undefined> {
    if (filter.coin === undefined) return undefined;
    const rows = await this.db
      .selectFrom("market_symbol")
      .select(["symbol_name", "coin_symbol"])
      .where((eb) => eb.or([eb("coin_symbol", "=", filter.coin!), eb("quote_symbol", "=", filter.coin!)]))
      .execute();
    return {
      base: rows.filter((r) => r.coin_symbol === filter.coin).map((r) => r.symbol_name),
      quote: rows.filter((r) => r.coin_symbol !== filter.coin).map((r) => r.symbol_name),
    };
  }

  /** Lines of the filter, counted up to `cap` + 1 (more than `cap` answers more than `cap`). */
  async count(memberId: string, filter: BillFilter, cap: number, markets?: CoinMarkets): Promise<number> {
    const sources = SOURCES.filter((s) => sourceUsed(s, filter));
    const reach = markets ?? (await this.marketsOf(filter));
    const counts = await Promise.all(sources.map(async (s) => (await countSql(s, memberId, filter, reach, cap).execute(this.db)).rows[0]!));
    if (counts.some((c) => Number(c.rows) > cap)) return cap + 1;
    return counts.reduce((sum, c) => sum + Number(c.lines), 0);
  }

  /**
   * The member's lines of the filter as CSV, headers in `lang`. More than EXPORT_MAX_ROWS lines
   * is refused before anything is sent; each source is read in keyset batches as lines are taken.
   */
  async export(memberId: string, filter: BillFilter, lang: LanguageCode, now: number): Promise<CsvExport> {
    await this.projection.projectedFor(memberId);
    if ((await this.count(memberId, filter, EXPORT_MAX_ROWS)) > EXPORT_MAX_ROWS) {
      throw Refusal.of(ResultCode.BAD_REQUEST, "bills.export_too_many", { max: EXPORT_MAX_ROWS.toLocaleString("en") });
    }
    const db = this.db;
    const markets = await this.marketsOf(filter);
    const streams = SOURCES.filter((s) => sourceUsed(s, filter)).map((s) => eachLine(db, s, memberId, filter, markets));
    async function* lines() {
      yield csvRecord(BILL_CSV_COLUMNS.map((c) => engineText(lang, `bills.${c}`)));
      const heads = await Promise.all(streams.map((s) => s.next()));
      for (;;) {
        let best = -1;
        heads.forEach((h, i) => {
          if (!h.done && (best < 0 || compare(h.value, (heads[best] as IteratorYieldResult<Sorted>).value) < 0)) best = i;
        });
        if (best < 0) return;
        yield csvRecord(billCsvFields((heads[best] as IteratorYieldResult<Sorted>).value.line));
        heads[best] = await streams[best]!.next();
      }
    }
    return { filename: billsFilename(filter, now), lines: lines() };
  }
}

const BATCH = 1000;

/** Every line of one source, newest first, its rows read in keyset batches. */
async function* eachLine(db: Kysely<Database>, source: Source, memberId: string, filter: BillFilter, markets: CoinMarkets | undefined): AsyncGenerator<Sorted> {
  let before: string | undefined;
  for (;;) {
    const rows = (await sourceRows(source, memberId, filter, markets, BATCH, before).execute(db)).rows;
    for (const row of rows) yield* linesOf(source, memberId, filter, row);
    if (rows.length < BATCH) return;
    before = rows[rows.length - 1]!.key;
  }
}

/** For the tests' plan checks: the SQL of one source's page and of its count. */
export function billSourceSql(
  source: Source,
  memberId: string,
  filter: BillFilter,
  markets: CoinMarkets | undefined,
  limit: number,
): { page: RawBuilder<unknown>; count: RawBuilder<unknown> } {
  return { page: sourceRows(source, memberId, filter, markets, limit), count: countSql(source, memberId, filter, markets, BILLS_COUNT_MAX) };
}
