import type { Kysely } from "kysely";
import { EXPORT_MAX_ROWS, HISTORY_PAGE_SIZE_DEFAULT, type ExportScope, type HistoryFilter } from "../../protocol/endpoints/order-history";
import { ResultCode } from "../../protocol/result-codes";
import { csvRecord } from "../core/reports/csv";
import {
  exportFilename,
  ORDER_CSV_HEADER,
  orderCsvFields,
  TRADE_CSV_HEADER,
  tradeCsvFields,
  type ExportOrder,
  type MemberTrade,
} from "../core/spot/order-history-view";
import { Refusal } from "../locales/refusal";
import type { Database } from "../store/schema";
import {
  countOrders,
  countTrades,
  eachOrder,
  eachTrade,
  findOrder,
  listOrders,
  listTrades,
  orderSymbols,
  tradesOfOrder,
  type OrderScope,
  type Page,
  type Paging,
} from "./order-history-report";

/** Which page a caller asks for; a missing number is page 1, a missing size HISTORY_PAGE_SIZE_DEFAULT. */
export interface PageRequest {
  pageNo?: number;
  pageSize?: number;
}

/** The part of the durable layer history waits on (`DurableCore.projectedFor`). */
export interface ProjectionWait {
  projectedFor(memberId: string): Promise<boolean>;
}

/** A CSV export: its file name and its lines (header first), read from the store as they are sent. */
export interface CsvExport {
  filename: string;
  lines: AsyncIterable<string>;
}

/**
 * A member's spot orders, trades and CSV export (spec §7 "Orders"; shapes in
 * docs/decisions/010-spot-order-history-api.md), over the spot projections. Every method is
 * scoped to the member: another member's order answers exactly like a missing one. The tables
 * are written behind the answer (decision 017), so every method first waits until they include
 * the member's last command: a member reads back what they were just answered. The queries
 * themselves are `order-history-report.ts`.
 */
export class OrderHistoryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly projection: ProjectionWait,
  ) {}

  /** One page of the member's open (`current`) or finished (`history`) orders, newest first. */
  async orders(memberId: string, scope: OrderScope, query: HistoryFilter & PageRequest): Promise<Page<ExportOrder>> {
    await this.projection.projectedFor(memberId);
    const { pageNo, pageSize, ...filter } = query;
    return listOrders(this.db, memberId, scope, filter, paging({ pageNo, pageSize }));
  }

  /** One page of the member's trades, newest first. */
  async trades(memberId: string, filter: HistoryFilter, page: Paging): Promise<Page<MemberTrade>> {
    await this.projection.projectedFor(memberId);
    return listTrades(this.db, memberId, filter, page);
  }

  /** One of the member's orders with a page of its trades; refused as not found when it is not theirs. */
  async order(memberId: string, orderId: string, page: PageRequest): Promise<{ order: ExportOrder; trades: Page<MemberTrade> }> {
    await this.projection.projectedFor(memberId);
    const order = await findOrder(this.db, memberId, orderId);
    if (!order) throw Refusal.of(ResultCode.NOT_FOUND, "orders.not_found");
    return { order, trades: await tradesOfOrder(this.db, memberId, orderId, paging(page)) };
  }

  /** The symbols the member has orders in, sorted. */
  async symbols(memberId: string): Promise<string[]> {
    await this.projection.projectedFor(memberId);
    return orderSymbols(this.db, memberId);
  }

  /**
   * The member's open orders, finished orders or trades matching the filter, as CSV. More than
   * EXPORT_MAX_ROWS rows is refused before anything is sent; the rows are read in batches as
   * the lines are taken.
   */
  async export(memberId: string, request: HistoryFilter & { scope: ExportScope }, now: number): Promise<CsvExport> {
    await this.projection.projectedFor(memberId);
    const { scope, ...filter } = request;
    const total = scope === "trades" ? await countTrades(this.db, memberId, filter) : await countOrders(this.db, memberId, scope, filter);
    if (total > EXPORT_MAX_ROWS) {
      throw Refusal.of(ResultCode.BAD_REQUEST, "orders.export_too_many", { max: EXPORT_MAX_ROWS.toLocaleString("en") });
    }
    const db = this.db;
    async function* lines() {
      if (scope === "trades") {
        yield csvRecord(TRADE_CSV_HEADER);
        for await (const trade of eachTrade(db, memberId, filter)) yield csvRecord(tradeCsvFields(trade));
      } else {
        yield csvRecord(ORDER_CSV_HEADER);
        for await (const order of eachOrder(db, memberId, scope, filter)) yield csvRecord(orderCsvFields(order));
      }
    }
    return { filename: exportFilename(scope, filter, now), lines: lines() };
  }
}

function paging(page: PageRequest): Paging {
  return { pageNo: page.pageNo ?? 1, pageSize: page.pageSize ?? HISTORY_PAGE_SIZE_DEFAULT };
}
