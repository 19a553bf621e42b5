import type { Insertable } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { ListMarket } from "../core/exchange/commands";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import { insertStatement, json, jsonRecords, text } from "../journal/sql-script";
import type { SpotOrderTable, SpotTradeTable } from "../store/schema";

/**
 * Spot's query-table rows of one batch (decisions 012 and 017): operator changes to the market
 * rows, new orders and fired stops in book order, fills and ends of orders written before, and
 * trades. An order's fills from several commands of the batch are added up into one update.
 */
export class SpotRows implements ProjectionRows {
  /**
   * New orders and fired stops in the order they reached the book: each takes the next book time
   * (`seq`, `triggered_seq`) from one sequence, so a restore from the tables queues them as live.
   */
  private readonly bookSteps: Array<{ orders: Array<Insertable<SpotOrderTable>> } | { fired: { orderId: string; kind: string; at: string } }> = [];
  private readonly orderChanges = new Map<
    string,
    { filled: bigint; scale: number; status: string | null; reason: string | null; held: string | null; at: string }
  >();
  private readonly trades: Array<Insertable<SpotTradeTable>> = [];
  /** Operator changes to the market and asset rows, in sequence order (written before the rest). */
  private readonly config: string[] = [];

  insertOrder(row: Insertable<SpotOrderTable>): void {
    const last = this.bookSteps[this.bookSteps.length - 1];
    if (last && "orders" in last) last.orders.push(row);
    else this.bookSteps.push({ orders: [row] });
  }

  /** A waiting stop fired: it joins the book now (its book time is taken in firing order). */
  fireStop(orderId: string, kind: string, at: string): void {
    this.bookSteps.push({ fired: { orderId, kind, at } });
  }

  /** Adds a fill (quantity at `scale`) to an order written before. */
  addFill(orderId: string, quantity: bigint, scale: number, at: string): void {
    const change = this.change(orderId, scale, at);
    change.filled += quantity;
  }

  /** An order written before ended (filled or cancelled). */
  setStatus(orderId: string, status: string, reason: string | null, scale: number, at: string): void {
    const change = this.change(orderId, scale, at);
    change.status = status;
    change.reason = reason;
  }

  /** What an order written before still holds (decimal text in the asset it pays with). */
  setHeld(orderId: string, held: string, at: string): void {
    this.change(orderId, null, at).held = held;
  }

  insertTrade(row: Insertable<SpotTradeTable>): void {
    this.trades.push(row);
  }

  /** A market halted or resumed (its row, read by a start from the tables). */
  marketHalted(symbol: string, halted: boolean): void {
    this.config.push(`update market_symbol set halted = ${halted} where symbol_name = ${text(symbol)}`);
  }

  /** A live market's new minimum quantity or fees. */
  marketRules(symbol: string, change: { minQuantity?: string; makerFeeBps?: number; takerFeeBps?: number }): void {
    const set = [
      change.minQuantity !== undefined && `min_quantity = ${text(change.minQuantity)}::numeric`,
      change.makerFeeBps !== undefined && `maker_fee_bps = ${Math.trunc(change.makerFeeBps)}`,
      change.takerFeeBps !== undefined && `taker_fee_bps = ${Math.trunc(change.takerFeeBps)}`,
    ].filter(Boolean);
    if (set.length) this.config.push(`update market_symbol set ${set.join(", ")} where symbol_name = ${text(symbol)}`);
  }

  /** A market listed by an operator (after every other market in the list), with its base asset when that is new. */
  marketListed(c: ListMarket): void {
    if (c.newBaseScale !== undefined) {
      this.config.push(
        `insert into asset (code, scale, name) values (${text(c.base)}, ${Math.trunc(c.newBaseScale)}, ${text(c.newBaseName ?? c.base)}) on conflict (code) do nothing`,
      );
    }
    const row = {
      symbol_name: c.symbol,
      coin_symbol: c.base,
      quote_symbol: c.quote,
      contract_type: 0,
      price_scale: c.priceScale,
      amount_scale: c.amountScale,
      tick_size: c.tickSize,
      lot_size: c.lotSize,
      min_quantity: c.minQuantity,
      maker_fee_bps: c.makerFeeBps,
      taker_fee_bps: c.takerFeeBps,
      enabled: true,
    };
    const columns = Object.keys(row)
      .map((k) => `"${k}"`)
      .join(", ");
    this.config.push(`insert into market_symbol (${columns}, sort) select ${columns}, (select coalesce(max(sort), 0) + 10 from market_symbol)
      from json_populate_record(null::market_symbol, ${json(row)}) on conflict (symbol_name) do nothing`);
  }

  /**
   * A later batch's rows (copied where they are added to): its market changes and book steps after these (new orders and fired
   * stops keep their book time), its trades after these, and each order's changes added to this
   * batch's (fills add up; a later status, hold or time replaces the earlier). The updates still
   * run after every insert, as within one batch: a change names an order written before it.
   */
  absorb(later: SpotRows): void {
    this.config.push(...later.config);
    for (const step of later.bookSteps) {
      if ("orders" in step) for (const row of step.orders) this.insertOrder(row);
      else this.bookSteps.push(step);
    }
    for (const [orderId, c] of later.orderChanges) {
      const mine = this.orderChanges.get(orderId);
      if (!mine) {
        this.orderChanges.set(orderId, { ...c }); // a copy: the next batch's changes add to it
        continue;
      }
      if (c.filled !== 0n) {
        if (mine.filled !== 0n && mine.scale !== c.scale) throw new Error(`fills of ${orderId} at two scales`);
        mine.filled += c.filled;
        mine.scale = c.scale;
      }
      if (c.status !== null) {
        mine.status = c.status;
        mine.reason = c.reason;
      }
      if (c.held !== null) mine.held = c.held;
      mine.at = c.at;
    }
    for (const trade of later.trades) this.trades.push(trade);
  }

  /** An order's change in this batch; `scale` (its amount scale) is null when the caller does not know it (no fill to add). */
  private change(orderId: string, scale: number | null, at: string) {
    let change = this.orderChanges.get(orderId);
    if (!change) {
      change = { filled: 0n, scale: scale ?? 0, status: null, reason: null, held: null, at };
      this.orderChanges.set(orderId, change);
    } else if (scale !== null) change.scale = scale;
    change.at = at;
    return change;
  }

  statements(): string[] {
    const script: string[] = [...this.config];
    const add = (statement: string | null) => statement && script.push(statement);
    // New orders in one statement per run between fired stops (rare), each stop in firing order.
    for (const step of this.bookSteps) {
      if ("orders" in step) {
        add(insertStatement("spot_order", step.orders));
        continue;
      }
      const f = step.fired;
      add(`update spot_order set status = 'open', price = trigger_price, triggered_by = ${text(f.kind)}, triggered_at = ${text(f.at)},
        triggered_seq = nextval(pg_get_serial_sequence('spot_order', 'seq')), updated_at = ${text(f.at)} where order_id = ${text(f.orderId)}`);
    }
    if (this.orderChanges.size) {
      const rows = [...this.orderChanges].map(([orderId, c]) => ({
        order_id: orderId,
        filled: fromMinor(c.filled, c.scale),
        status: c.status,
        reason: c.reason,
        held: c.held,
        updated_at: c.at,
      }));
      add(`update spot_order o set filled = o.filled + v.filled, status = coalesce(v.status, o.status),
          reason = case when v.status is null then o.reason else v.reason end, held = coalesce(v.held, o.held), updated_at = v.updated_at
        from ${jsonRecords(rows, "v", "order_id varchar, filled numeric, status varchar, reason varchar, held numeric, updated_at timestamptz")}
        where o.order_id = v.order_id`);
    }
    add(insertStatement("spot_trade", this.trades));
    return script;
  }
}

export const SPOT_ROWS: RowsKind<SpotRows> = { name: "spot", order: 10, create: () => new SpotRows() };
