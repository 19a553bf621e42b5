import { sql, type Insertable, type Transaction } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { CommandJournalTable, Database, IdempotencyKeyTable, LedgerAccountTable, LedgerHoldTable, LedgerTransferTable, SpotOrderTable, SpotTradeTable } from "../store/schema";

/**
 * The rows one group-commit batch writes (decision 012). Each command adds its rows at once,
 * when the core applies it, so they show the state right after that command (not whatever the
 * memory holds when the batch is written, which may already include later, uncommitted commands).
 * The batch then writes each table with one statement for all its rows (rows as one JSON
 * value, typed by the table itself), all statements in one script (one round trip): a balance
 * or hold touched by many commands is written once with its last value, and an order's fills
 * from several commands are added up.
 */
export class SpotWrites {
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
  private readonly commands: Array<Insertable<CommandJournalTable>> = [];
  private written: Promise<void> | null = null;

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

  insertKey(row: Insertable<IdempotencyKeyTable>): void {
    this.keys.push(row);
  }

  /** An accepted command for the journal (decision 017), in sequence order. */
  appendCommand(seq: number, at: Date, command: unknown): void {
    this.commands.push({ seq: String(seq), at, command: JSON.stringify(command) });
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

  /** Writes the batch in its transaction (once, however many of its commands ask). */
  write(trx: Transaction<Database>): Promise<void> {
    this.written ??= this.writeAll(trx);
    return this.written;
  }

  private async writeAll(trx: Transaction<Database>): Promise<void> {
    // One script, one round trip: the statements run in order, in the batch's transaction.
    const script: string[] = [];
    const add = (statement: string | null) => statement && script.push(statement);
    add(insertStatement("command_journal", this.commands));
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
    add(insertStatement("idempotency_key", this.keys));
    if (script.length) await sql.raw(script.join(";\n")).execute(trx);
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
  while (value.includes(`$${tag}$`)) tag += "v";
  return `$${tag}$${value}$${tag}$`;
}

function json(value: unknown): string {
  return `${text(JSON.stringify(value))}::json`;
}
