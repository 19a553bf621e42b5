import { sql, type Kysely, type Selectable } from "kysely";
import type { ContractOrder, ContractStop } from "../../protocol/endpoints/contracts";
import type { DurableCore } from "../journal/durable-core";
import type { Database } from "../store/schema";
import { EXPORT_MAX_ROWS } from "../../protocol/endpoints/order-history";
import { ResultCode } from "../../protocol/result-codes";
import { csvRecord } from "../core/reports/csv";
import { csvTime } from "../core/spot/order-history-view";
import { Refusal } from "../locales/refusal";
import type { CsvExport } from "../spot/order-history-service";
import { trimDecimal } from "./contract-config";

const DIRECTIONS: Record<string, ContractOrder["direction"]> = { "buy open": "1", "sell open": "2", "sell close": "3", "buy close": "4" };

/**
 * A member's contract orders from the tables (decision 046), after the projection has caught up
 * with their own latest command: open ones (`current`) or ended ones (`history`), newest first,
 * each with the average price, fees and realised profit of its fills.
 */
export class ContractHistory {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly durable: DurableCore,
  ) {}

  async orders(memberId: string, options: ListOptions & { scope: "current" | "history" }): Promise<{ list: ContractOrder[]; total: number }> {
    const { rows, total } = await this.scopedPage("contract_order", "open", memberId, options);
    const ids = rows.map((r) => r.order_id);
    const fills = ids.length
      ? await sql<{ order_id: string; avg: string | null; fee: string; realised: string }>`
          select order_id, trim_scale(sum(price * qty) / nullif(sum(qty), 0))::text as avg, trim_scale(sum(fee))::text as fee, trim_scale(sum(realised))::text as realised
          from contract_fill where member_id = ${memberId} and order_id in (${sql.join(ids)}) group by order_id`.execute(this.db)
      : { rows: [] };
    const byOrder = new Map(fills.rows.map((f) => [f.order_id, f]));
    return {
      total,
      list: rows.map((r) => {
        const f = byOrder.get(r.order_id);
        return {
          orderId: r.order_id,
          symbolName: r.symbol,
          contract_type: options.typeOf(r.symbol),
          direction: DIRECTIONS[`${r.side} ${r.action}`]!,
          type: r.type as "limit" | "market",
          tif: r.tif,
          price: r.price === null ? null : trimDecimal(String(r.price)),
          quantity: String(r.quantity),
          filled: String(r.filled),
          leverage: r.leverage,
          status: r.status as ContractOrder["status"],
          reason: r.reason,
          averagePrice: f?.avg ?? null,
          fee: f?.fee ?? "0",
          realised: f?.realised ?? "0",
          createdAt: new Date(r.created_at).toISOString(),
        };
      }),
    };
  }

  /** The member's conditional orders in `symbols` (decision 048): waiting ones (`current`) or ended ones (`history`), newest first. */
  async stops(memberId: string, options: ListOptions & { scope: "current" | "history" }): Promise<{ list: ContractStop[]; total: number }> {
    const { rows, total } = await this.scopedPage("contract_stop", "waiting", memberId, options);
    const decimal = (v: string | null) => (v === null ? null : trimDecimal(String(v)));
    return {
      total,
      list: rows.map((r) => {
        // A stop order has one trigger, on the side of the price it was placed on; a take profit and stop loss has either or both.
        const position = r.quantity === null;
        return {
          stopId: r.stop_id,
          symbolName: r.symbol,
          contract_type: options.typeOf(r.symbol),
          direction: DIRECTIONS[`${r.side} ${r.action}`]!,
          type: r.type as "limit" | "market",
          price: decimal(r.price),
          quantity: r.quantity === null ? null : String(r.quantity),
          triggerBy: r.trigger_by,
          triggerPrice: position ? null : decimal(r.profit_price ?? r.loss_price),
          takeProfit: position ? decimal(r.profit_price) : null,
          stopLoss: position ? decimal(r.loss_price) : null,
          status: r.status as ContractStop["status"],
          reason: r.reason,
          firedPrice: decimal(r.fired_price),
          createdAt: new Date(r.created_at).toISOString(),
          updatedAt: new Date(r.updated_at).toISOString(),
        };
      }),
    };
  }

  /** The funding the member's positions in `symbols` paid or received, newest first. */
  async funding(memberId: string, options: ListOptions) {
    const { rows, total } = await this.pageOf("contract_funding", memberId, options);
    return {
      total,
      list: rows.map((r) => ({
        symbolName: r.symbol,
        contract_type: options.typeOf(r.symbol),
        rate: trimDecimal(String(r.rate)),
        mark: trimDecimal(String(r.mark)),
        amount: trimDecimal(String(r.amount)),
        createdAt: new Date(r.created_at).toISOString(),
      })),
    };
  }

  /** The member's positions in `symbols` liquidated or auto-deleveraged, newest first. */
  async liquidations(memberId: string, options: ListOptions) {
    const { rows, total } = await this.pageOf("contract_liquidation", memberId, options);
    return {
      total,
      list: rows.map((r) => ({
        symbolName: r.symbol,
        contract_type: options.typeOf(r.symbol),
        kind: r.kind === "deleveraged" ? ("deleveraged" as const) : ("liquidated" as const),
        side: r.side === "long" ? ("long" as const) : r.side === "short" ? ("short" as const) : null,
        qty: String(r.qty),
        price: trimDecimal(String(r.price)),
        mark: r.mark === null ? null : trimDecimal(String(r.mark)),
        createdAt: new Date(r.created_at).toISOString(),
      })),
    };
  }

  /**
   * The member's contract trades in `symbols` as a CSV file, newest first (`label`: what the file
   * name says, e.g. usdt-margined or BTC_USDT). More than EXPORT_MAX_ROWS is refused before anything
   * is sent; the rows are read in batches as the file streams.
   */
  async exportFills(memberId: string, symbols: string[], settleCoinOf: (symbol: string) => string, label: string, now: number): Promise<CsvExport> {
    await this.durable.projectedFor(memberId);
    const base = () =>
      this.db
        .selectFrom("contract_fill")
        .where("member_id", "=", memberId)
        .where("symbol", "in", symbols.length ? symbols : [""]);
    const count = await base()
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirst();
    if (Number(count?.n ?? 0) > EXPORT_MAX_ROWS) {
      throw Refusal.of(ResultCode.BAD_REQUEST, "orders.export_too_many", { max: EXPORT_MAX_ROWS.toLocaleString("en") });
    }
    async function* lines() {
      yield csvRecord(FILL_CSV_HEADER);
      let after: { at: Date; trade: string; order: string } | null = null;
      for (;;) {
        let query = base().selectAll();
        if (after) {
          const { at, trade, order } = after;
          query = query.where((eb) =>
            eb.or([
              eb("created_at", "<", at),
              eb.and([eb("created_at", "=", at), eb.or([eb("trade_id", "<", trade), eb.and([eb("trade_id", "=", trade), eb("order_id", "<", order)])])]),
            ]),
          );
        }
        const rows = await query.orderBy("created_at", "desc").orderBy("trade_id", "desc").orderBy("order_id", "desc").limit(EXPORT_BATCH).execute();
        for (const r of rows)
          yield csvRecord([
            csvTime(new Date(r.created_at).toISOString()),
            r.trade_id,
            r.order_id,
            r.symbol.replace("/", ""),
            DIRECTION_NAMES[`${r.side} ${r.action}`] ?? `${r.side} ${r.action}`,
            r.liquidity,
            trimDecimal(String(r.price)),
            String(r.qty),
            trimDecimal(String(r.fee)),
            trimDecimal(String(r.realised)),
            settleCoinOf(r.symbol),
          ]);
        if (rows.length < EXPORT_BATCH) return;
        const last = rows[rows.length - 1]!;
        after = { at: new Date(last.created_at), trade: last.trade_id, order: last.order_id };
      }
    }
    const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, "");
    return { filename: `contract-trades-${label}-${day}.csv`.replace(/[^A-Za-z0-9._-]/g, "_"), lines: lines() };
  }

  /** A page of one of the member's records in some contracts, newest first, once the projection has their latest command. */
  /** A page of the member's orders or stops in `symbols`: those still in `liveStatus` (`current`) or ended ones, newest first. */
  private async scopedPage<T extends "contract_order" | "contract_stop">(
    table: T,
    liveStatus: string,
    memberId: string,
    options: ListOptions & { scope: "current" | "history" },
  ): Promise<{ rows: Array<Selectable<Database[T]>>; total: number }> {
    await this.durable.projectedFor(memberId);
    if (options.symbols.length === 0) return { rows: [], total: 0 };
    // One of two tables with the same key columns (seq, member_id, symbol, status): typed as the first.
    const base = this.db
      .selectFrom(table as "contract_order")
      .where("member_id", "=", memberId)
      .where("symbol", "in", options.symbols)
      .where("status", options.scope === "current" ? "=" : "<>", liveStatus);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy("seq", "desc")
        .limit(options.pageSize)
        .offset((options.page - 1) * options.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirst(),
    ]);
    return { rows: rows as unknown as Array<Selectable<Database[T]>>, total: Number(count?.n ?? 0) };
  }

  private async pageOf<T extends "contract_funding" | "contract_liquidation">(
    table: T,
    memberId: string,
    options: ListOptions,
  ): Promise<{ rows: Array<Selectable<Database[T]>>; total: number }> {
    await this.durable.projectedFor(memberId);
    if (options.symbols.length === 0) return { rows: [], total: 0 };
    // One of two tables with the same key columns (id, member_id, symbol): typed as the first.
    const base = this.db
      .selectFrom(table as "contract_funding")
      .where("member_id", "=", memberId)
      .where("symbol", "in", options.symbols);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy("id", "desc")
        .limit(options.pageSize)
        .offset((options.page - 1) * options.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirst(),
    ]);
    return { rows: rows as unknown as Array<Selectable<Database[T]>>, total: Number(count?.n ?? 0) };
  }
}

/** A contract fill as exported (one line of the CSV). */
const FILL_CSV_HEADER = [
  "Time (UTC)",
  "Trade ID",
  "Order ID",
  "Contract",
  "Direction",
  "Role",
  "Price",
  "Contracts",
  "Fee",
  "Realised profit",
  "Settlement coin",
];
const DIRECTION_NAMES: Record<string, string> = { "buy open": "Open long", "sell open": "Open short", "sell close": "Close long", "buy close": "Close short" };
/** Rows read from the table at a time while the file streams. */
const EXPORT_BATCH = 1_000;

/** A page of a member's list in some contracts. */
interface ListOptions {
  symbols: string[];
  typeOf: (symbol: string) => 1 | 2;
  page: number;
  pageSize: number;
}
