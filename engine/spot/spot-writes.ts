import { sql, type Insertable, type Transaction } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { ProjectionBatch } from "../journal/projector";
import type { ListMarket } from "../core/exchange/commands";
import type { CommandJournalTable, Database, IdempotencyKeyTable, LedgerAccountTable, LedgerHoldTable, LedgerTransferTable, SpotOrderTable, SpotTradeTable } from "../store/schema";

/**
 * The rows one group-commit batch writes (decisions 012 and 017). Each command adds its rows at
 * once, when the core applies it, so they show the state right after that command (not whatever
 * the memory holds when the rows are written, which may already include later commands).
 *
 * Two parts: the journal's (accepted commands and idempotency keys), committed before any answer
 * of the batch is sent, and the projection's (orders, trades, ledger transfers, balances, holds),
 * written behind the answer by the projector (engine/journal/projector.ts) once the journal part
 * is durable. Each table is written with one statement for all its rows (rows as one JSON value,
 * typed by the table itself): a balance or hold touched by many commands is written once with its
 * last value, and an order's fills from several commands are added up.
 */
export class SpotWrites implements ProjectionBatch {
  /**
   * New orders and fired stops in the order they reached the book: each takes the next book time
   * (`seq`, `triggered_seq`) from one sequence, so a restore from the tables queues them as live.
   */
  private readonly bookSteps: Array<{ orders: Array<Insertable<SpotOrderTable>> } | { fired: { orderId: string; kind: string; at: Date } }> = [];
  private readonly orderChanges = new Map<string, { filled: bigint; scale: number; status: string | null; reason: string | null; at: Date }>();
  private readonly trades: Array<Insertable<SpotTradeTable>> = [];
  private readonly transfers: Array<Insertable<LedgerTransferTable>> = [];
  private readonly accounts = new Map<string, Insertable<LedgerAccountTable>>();
  /** Last state of each touched hold; null: used up (deleted). */
  private readonly holds = new Map<string, Insertable<LedgerHoldTable> | null>();
  private readonly keys: Array<Insertable<IdempotencyKeyTable>> = [];
  /** Operator changes to the market and asset rows, in sequence order (written before the rest of the batch). */
  private readonly config: string[] = [];
  private readonly commands: Array<Insertable<CommandJournalTable>> = [];
  private journalWritten: Promise<void> | null = null;
  /** Sequence number of the last command in the batch (0: none accepted). */
  lastSeq = 0;
  /** When the batch's last command was applied (ms), for the projection's lag. */
  appliedAt = 0;
  /** Accepted commands in the batch. */
  size = 0;

  insertOrder(row: Insertable<SpotOrderTable>): void {
    const last = this.bookSteps[this.bookSteps.length - 1];
    if (last && "orders" in last) last.orders.push(row);
    else this.bookSteps.push({ orders: [row] });
  }

  /** A waiting stop fired: it joins the book now (its book time is taken in firing order). */
  fireStop(orderId: string, kind: string, at: Date): void {
    this.bookSteps.push({ fired: { orderId, kind, at } });
  }

  /** Adds a fill (quantity at `scale`) to an order written before. */
  addFill(orderId: string, quantity: bigint, scale: number, at: Date): void {
    const change = this.change(orderId, scale, at);
    change.filled += quantity;
  }

  /** An order written before ended (filled or cancelled). */
  setStatus(orderId: string, status: string, reason: string | null, scale: number, at: Date): void {
    const change = this.change(orderId, scale, at);
    change.status = status;
    change.reason = reason;
  }

  insertTrade(row: Insertable<SpotTradeTable>): void {
    this.trades.push(row);
  }

  insertTransfer(row: Insertable<LedgerTransferTable>): void {
    this.transfers.push(row);
  }

  /** The account's balances as they are now (a later call in the batch replaces them). */
  putAccount(row: Insertable<LedgerAccountTable>): void {
    this.accounts.set(row.id, row);
  }

  putHold(id: string, row: Insertable<LedgerHoldTable> | null): void {
    this.holds.set(id, row);
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
      this.config.push(`insert into asset (code, scale, name) values (${text(c.base)}, ${Math.trunc(c.newBaseScale)}, ${text(c.newBaseName ?? c.base)}) on conflict (code) do nothing`);
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
    const columns = Object.keys(row).map((k) => `"${k}"`).join(", ");
    this.config.push(`insert into market_symbol (${columns}, sort) select ${columns}, (select coalesce(max(sort), 0) + 10 from market_symbol)
      from json_populate_record(null::market_symbol, ${json(row)}) on conflict (symbol_name) do nothing`);
  }

  insertKey(row: Insertable<IdempotencyKeyTable>): void {
    this.keys.push(row);
  }

  /** An accepted command for the journal (decision 017), in sequence order. */
  appendCommand(seq: number, at: Date, command: unknown): void {
    this.commands.push({ seq: String(seq), at, command: JSON.stringify(command) });
    this.noteSeq(seq);
  }

  /** An accepted command whose rows this batch projects (a replayed one is already in the journal). */
  noteSeq(seq: number): void {
    this.lastSeq = seq;
    this.appliedAt = Date.now();
    this.size++;
  }

  private change(orderId: string, scale: number, at: Date) {
    let change = this.orderChanges.get(orderId);
    if (!change) {
      change = { filled: 0n, scale, status: null, reason: null, at };
      this.orderChanges.set(orderId, change);
    }
    change.at = at;
    return change;
  }

  /** Writes the journal part in the batch's transaction (once, however many of its commands ask). */
  writeJournal(trx: Transaction<Database>): Promise<void> {
    this.journalWritten ??= this.journalScript(trx);
    return this.journalWritten;
  }

  private async journalScript(trx: Transaction<Database>): Promise<void> {
    const script = [insertStatement("command_journal", this.commands), insertStatement("idempotency_key", this.keys)].filter((x): x is string => x !== null);
    if (script.length) await sql.raw(script.join(";\n")).execute(trx);
    // Written: the batch now waits for the projector with its table rows only.
    this.commands.length = 0;
    this.keys.length = 0;
  }

  /** The projection part as statements to run in order (the projector joins batches into one script). */
  projectionStatements(): string[] {
    const script: string[] = [...this.config];
    const add = (statement: string | null) => statement && script.push(statement);
    // New orders in one statement per run between fired stops (rare), each stop in firing order.
    for (const step of this.bookSteps) {
      if ("orders" in step) {
        add(insertStatement("spot_order", step.orders));
        continue;
      }
      const f = step.fired;
      add(`update spot_order set status = 'open', price = trigger_price, triggered_by = ${text(f.kind)}, triggered_at = ${text(f.at.toISOString())},
        triggered_seq = nextval(pg_get_serial_sequence('spot_order', 'seq')), updated_at = ${text(f.at.toISOString())} where order_id = ${text(f.orderId)}`);
    }
    if (this.orderChanges.size) {
      const rows = [...this.orderChanges].map(([orderId, c]) => ({ order_id: orderId, filled: fromMinor(c.filled, c.scale), status: c.status, reason: c.reason, updated_at: c.at }));
      add(`update spot_order o set filled = o.filled + v.filled, status = coalesce(v.status, o.status),
          reason = case when v.status is null then o.reason else v.reason end, updated_at = v.updated_at
        from json_to_recordset(${json(rows)}) as v(order_id varchar, filled numeric, status varchar, reason varchar, updated_at timestamptz)
        where o.order_id = v.order_id`);
    }
    add(insertStatement("spot_trade", this.trades));
    add(insertStatement("ledger_transfer", this.transfers));
    add(insertStatement("ledger_account", [...this.accounts.values()], "on conflict (id) do update set posted = excluded.posted, held = excluded.held"));
    const kept: Array<Insertable<LedgerHoldTable>> = [];
    const gone: string[] = [];
    for (const [id, row] of this.holds) {
      if (row) kept.push(row);
      else gone.push(id);
    }
    add(insertStatement("ledger_hold", kept, "on conflict (id) do update set remaining = excluded.remaining"));
    if (gone.length) add(`delete from ledger_hold where id in (select value from json_array_elements_text(${json(gone)}))`);
    return script;
  }
}

/**
 * One INSERT for many rows: the rows travel as one JSON value and the table's own row type
 * converts each field (`json_populate_recordset`). Columns are those the rows give a value;
 * the others take their defaults.
 */
function insertStatement(table: keyof Database & string, rows: Array<Record<string, unknown>>, tail = ""): string | null {
  if (!rows.length) return null;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => r[k] !== undefined)))].map((c) => `"${c}"`).join(", ");
  return `insert into ${table} (${columns}) select ${columns} from json_populate_recordset(null::${table}, ${json(rows)}) ${tail}`;
}

/**
 * A value as an SQL literal, dollar-quoted with a tag the text does not contain: no escaping to
 * get wrong, whatever the text holds (the script has no parameters, so it runs in one round trip).
 */
function text(value: string): string {
  let tag = "v";
  // Not in the text, nor formed by its end and the closing tag ("…$v" + "$v$").
  while (`${value}$`.includes(`$${tag}$`)) tag += "v";
  return `$${tag}$${value}$${tag}$`;
}

function json(value: unknown): string {
  return `${text(JSON.stringify(value))}::json`;
}
