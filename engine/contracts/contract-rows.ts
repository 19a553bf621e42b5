import type { Insertable } from "kysely";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import { insertStatement, json, jsonRecords, text } from "../journal/sql-script";
import type {
  ContractFillTable,
  ContractFundingTable,
  ContractLiquidationTable,
  ContractOrderTable,
  ContractPositionTable,
  ContractStopTable,
  ContractTradeTable,
} from "../store/schema";

/** An open or ended order's row as it stands after a command (absolute values: a later state replaces an earlier). */
export type OrderState = {
  order_id: string;
  remaining: string;
  margin_left: string;
  fee_left: string;
  status: string;
  reason: string | null;
  updated_at: string;
};

/** How a conditional order ended (a later state replaces an earlier). */
export type StopState = { stop_id: string; status: string; reason: string | null; fired_price: string | null; updated_at: string };

/** A contract's price loop state after a command. */
export interface SymbolState {
  symbol: string;
  index_price: string | null;
  mark_price: string | null;
  basis: string | null;
  premium_sum: string | null;
  premium_count: number | null;
  next_funding_at: string | null;
  deficit: string;
}

type PositionRow = Insertable<ContractPositionTable>;

/**
 * Contracts' query-table rows of one batch (decision 046). Orders, positions, leverages and the
 * contracts' price state are written as they stand after the batch's last command touching them
 * (each read from the core right after its command), so two batches merge by the later state
 * replacing the earlier; trades, fills, funding and liquidations are facts, appended.
 */
export class ContractRows implements ProjectionRows {
  private readonly config: string[] = [];
  private readonly newOrders = new Map<string, Insertable<ContractOrderTable>>();
  private readonly orderStates = new Map<string, OrderState>();
  private readonly newStops = new Map<string, Insertable<ContractStopTable>>();
  private readonly stopStates = new Map<string, StopState>();
  private readonly positions = new Map<string, PositionRow | { symbol: string; member_id: string; gone: true }>();
  private readonly leverages = new Map<string, { member_id: string; symbol: string; leverage: number; margin_mode: "isolated" | "cross" }>();
  private readonly symbols = new Map<string, SymbolState>();
  private readonly trades: Array<Insertable<ContractTradeTable>> = [];
  private readonly fills: Array<Insertable<ContractFillTable>> = [];
  private readonly fundings: Array<Insertable<ContractFundingTable>> = [];
  private readonly liquidations: Array<Insertable<ContractLiquidationTable>> = [];

  insertOrder(row: Insertable<ContractOrderTable>): void {
    this.newOrders.set(row.order_id, row);
  }

  orderState(state: OrderState): void {
    this.orderStates.set(state.order_id, state);
  }

  insertStop(row: Insertable<ContractStopTable>): void {
    this.newStops.set(row.stop_id, row);
  }

  stopState(state: StopState): void {
    this.stopStates.set(state.stop_id, state);
  }

  position(row: PositionRow): void {
    this.positions.set(`${row.member_id}|${row.symbol}`, row);
  }

  positionGone(memberId: string, symbol: string): void {
    this.positions.set(`${memberId}|${symbol}`, { symbol, member_id: memberId, gone: true });
  }

  /** A member's leverage and margin mode in a contract, as they stand. */
  leverage(memberId: string, symbol: string, leverage: number, marginMode: "isolated" | "cross"): void {
    this.leverages.set(`${memberId}|${symbol}`, { member_id: memberId, symbol, leverage, margin_mode: marginMode });
  }

  symbolState(state: SymbolState): void {
    this.symbols.set(state.symbol, state);
  }

  /** An operator's change to a contract's row (in sequence order, before the rest). */
  rules(symbol: string, change: { halted?: boolean; makerFeeBps?: number; takerFeeBps?: number; minQty?: string; maxQty?: string; priceBand?: string }): void {
    const set = [
      change.halted !== undefined && `halted = ${change.halted}`,
      change.makerFeeBps !== undefined && `maker_fee_bps = ${Math.trunc(change.makerFeeBps)}`,
      change.takerFeeBps !== undefined && `taker_fee_bps = ${Math.trunc(change.takerFeeBps)}`,
      change.minQty !== undefined && `min_qty = ${text(change.minQty)}::bigint`,
      change.maxQty !== undefined && `max_qty = ${text(change.maxQty)}::bigint`,
      // The band travels in RATE units (10⁻⁸); the row keeps it as a fraction.
      change.priceBand !== undefined && `price_band = ${text(change.priceBand)}::numeric / 100000000`,
    ].filter(Boolean);
    if (set.length) this.config.push(`update contract_symbol set ${set.join(", ")} where symbol = ${text(symbol)}`);
  }

  trade(row: Insertable<ContractTradeTable>, fills: Array<Insertable<ContractFillTable>>): void {
    this.trades.push(row);
    this.fills.push(...fills);
  }

  funding(row: Insertable<ContractFundingTable>): void {
    this.fundings.push(row);
  }

  liquidation(row: Insertable<ContractLiquidationTable>): void {
    this.liquidations.push(row);
  }

  absorb(later: ContractRows): void {
    this.config.push(...later.config);
    for (const [k, v] of later.newOrders) this.newOrders.set(k, v);
    for (const [k, v] of later.orderStates) this.orderStates.set(k, v);
    for (const [k, v] of later.newStops) this.newStops.set(k, v);
    for (const [k, v] of later.stopStates) this.stopStates.set(k, v);
    for (const [k, v] of later.positions) this.positions.set(k, v);
    for (const [k, v] of later.leverages) this.leverages.set(k, v);
    for (const [k, v] of later.symbols) this.symbols.set(k, v);
    this.trades.push(...later.trades);
    this.fills.push(...later.fills);
    this.fundings.push(...later.fundings);
    this.liquidations.push(...later.liquidations);
  }

  statements(): string[] {
    const script: string[] = [...this.config];
    const add = (statement: string | null) => statement && script.push(statement);
    add(insertStatement("contract_order", [...this.newOrders.values()]));
    if (this.orderStates.size)
      add(`update contract_order o set filled = o.quantity - v.remaining, margin_left = v.margin_left, fee_left = v.fee_left,
          status = v.status, reason = v.reason, updated_at = v.updated_at
        from ${jsonRecords([...this.orderStates.values()], "v", "order_id varchar, remaining bigint, margin_left numeric, fee_left numeric, status varchar, reason varchar, updated_at timestamptz")}
        where o.order_id = v.order_id`);
    add(insertStatement("contract_stop", [...this.newStops.values()]));
    if (this.stopStates.size)
      add(`update contract_stop s set status = v.status, reason = v.reason, fired_price = v.fired_price, updated_at = v.updated_at
        from ${jsonRecords([...this.stopStates.values()], "v", "stop_id varchar, status varchar, reason varchar, fired_price numeric, updated_at timestamptz")}
        where s.stop_id = v.stop_id`);
    const kept: PositionRow[] = [];
    const gone: Array<{ member_id: string; symbol: string }> = [];
    for (const p of this.positions.values()) {
      if ("gone" in p) gone.push({ member_id: p.member_id, symbol: p.symbol });
      else kept.push(p);
    }
    if (gone.length)
      add(`delete from contract_position p using ${jsonRecords(gone, "v", "member_id varchar, symbol varchar")}
        where p.member_id = v.member_id and p.symbol = v.symbol`);
    add(
      insertStatement(
        "contract_position",
        kept,
        `on conflict (member_id, symbol) do update set side = excluded.side, qty = excluded.qty, cost = excluded.cost,
          margin = excluded.margin, leverage = excluded.leverage, updated_at = excluded.updated_at`,
      ),
    );
    add(
      insertStatement(
        "contract_leverage",
        [...this.leverages.values()],
        "on conflict (member_id, symbol) do update set leverage = excluded.leverage, margin_mode = excluded.margin_mode",
      ),
    );
    if (this.symbols.size)
      add(`update contract_symbol s set index_price = v.index_price, mark_price = v.mark_price, basis = v.basis, premium_sum = v.premium_sum,
          premium_count = v.premium_count, next_funding_at = v.next_funding_at, deficit = v.deficit
        from (select * from json_populate_recordset(null::contract_symbol, ${json([...this.symbols.values()])})) v
        where s.symbol = v.symbol`);
    add(insertStatement("contract_trade", this.trades));
    add(insertStatement("contract_fill", this.fills));
    add(insertStatement("contract_funding", this.fundings));
    add(insertStatement("contract_liquidation", this.liquidations));
    return script;
  }
}

/** A contract trade's id: its command's sequence number and its place among the command's trades (the row's, the push's and the page's). */
export const contractTradeId = (seq: number, n: number): string => `${seq}.${n}`;

export const CONTRACT_ROWS: RowsKind<ContractRows> = { name: "contracts", order: 40, create: () => new ContractRows() };
