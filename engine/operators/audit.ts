import type { Insertable, Kysely, Transaction } from "kysely";
import type { AuditRow, OperatorRole } from "../../protocol/operators";
import { csvRecord } from "../core/reports/csv";
import type { Database, OperatorAuditTable } from "../store/schema";

/** Who acts: an operator's session (the console) or the data folder's token (the CLI, as admin). */
export interface OperatorActor {
  /** null: the CLI, which holds the data folder's token rather than an operator's session. */
  readonly operatorId: string | null;
  readonly name: string;
  readonly role: OperatorRole;
  readonly via: "console" | "cli";
  /** The address the request came from (the console's member of staff, through the web tier). */
  readonly address: string;
}

export type AuditInsert = Insertable<OperatorAuditTable>;

/**
 * One operator call's audit (decision 043): the endpoint wrapper makes one per request, and the
 * service that makes the change writes its row with the change, in the change's transaction
 * (`write`) or its journal batch (`row`, handed to `DurableCore.execute`'s `audit`). A refused
 * call writes none. The wrapper checks afterwards that a call which changes something wrote
 * exactly one.
 */
export class OperatorAct {
  private rows = 0;

  constructor(
    readonly actor: OperatorActor,
    /** What was done, named after the call (`withdrawal.review`, `market.halt`). */
    readonly action: string,
  ) {}

  /** Rows made so far (the wrapper's check). */
  get recorded(): number {
    return this.rows;
  }

  /** The audit row of the change, to be written with it; counted as written. */
  row(target: string, before: unknown, after: unknown, at: number): AuditInsert {
    this.rows++;
    const { operatorId, name, role, via, address } = this.actor;
    return {
      at: new Date(at).toISOString(),
      operator_id: operatorId,
      operator_name: name,
      role,
      via,
      action: this.action,
      target,
      before: before === undefined ? null : JSON.stringify(before),
      after: after === undefined ? null : JSON.stringify(after),
      address,
    };
  }

  /** Writes the change's audit row in the change's own transaction. */
  async write(trx: Transaction<Database> | Kysely<Database>, target: string, before: unknown, after: unknown, at: number): Promise<void> {
    await trx
      .insertInto("operator_audit")
      .values(this.row(target, before, after, at))
      .execute();
  }
}

/** An audit row as a journal batch inserts it (`json_populate_recordset` types `before`/`after` as jsonb itself). */
export function auditRowForBatch(row: AuditInsert): Record<string, unknown> {
  return {
    ...row,
    before: row.before === null ? null : JSON.parse(row.before as string),
    after: row.after === null ? null : JSON.parse(row.after as string),
  };
}

export interface AuditFilter {
  operator?: string;
  action?: string;
  target?: string;
  /** Inclusive, ms. */
  from?: number;
  /** Exclusive, ms. */
  to?: number;
}

/** Reads the audit log (nothing here writes to it but `OperatorAct`; the database refuses changes). */
export class AuditLog {
  constructor(private readonly db: Kysely<Database>) {}

  /** Newest first, one page (`before`: the id the previous page ended at). */
  async list(filter: AuditFilter, page: { before?: string; size: number }): Promise<{ rows: AuditRow[]; next: string | null }> {
    let query = this.filtered(filter);
    if (page.before) query = query.where("id", "<", page.before);
    const rows = await query
      .orderBy("id", "desc")
      .limit(page.size + 1)
      .execute();
    const more = rows.length > page.size;
    const shown = rows.slice(0, page.size).map(view);
    return { rows: shown, next: more ? shown[shown.length - 1]!.id : null };
  }

  /** Every row of the filter, oldest first, as CSV (`core/reports/csv`: RFC 4180, formulas defused). */
  async csv(filter: AuditFilter, limit: number): Promise<{ text: string; truncated: boolean }> {
    const rows = await this.filtered(filter)
      .orderBy("id", "asc")
      .limit(limit + 1)
      .execute();
    const header = ["id", "at", "operator_id", "operator", "role", "via", "action", "target", "before", "after", "address"];
    const lines = [csvRecord(header)];
    for (const row of rows.slice(0, limit).map(view)) {
      lines.push(
        csvRecord([
          row.id,
          row.at,
          row.operatorId ?? "",
          row.operator,
          row.role,
          row.via,
          row.action,
          row.target,
          jsonCell(row.before),
          jsonCell(row.after),
          row.address,
        ]),
      );
    }
    return { text: lines.join(""), truncated: rows.length > limit };
  }

  private filtered(filter: AuditFilter) {
    let query = this.db.selectFrom("operator_audit").selectAll();
    if (filter.operator) query = query.where("operator_name", "=", filter.operator);
    if (filter.action) query = query.where("action", "=", filter.action);
    if (filter.target) query = query.where("target", "=", filter.target);
    if (filter.from !== undefined) query = query.where("at", ">=", new Date(filter.from));
    if (filter.to !== undefined) query = query.where("at", "<", new Date(filter.to));
    return query;
  }
}

function view(row: {
  id: string;
  at: Date;
  operator_id: string | null;
  operator_name: string;
  role: string;
  via: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  address: string;
}): AuditRow {
  return {
    id: String(row.id),
    at: new Date(row.at).toISOString(),
    operatorId: row.operator_id === null ? null : String(row.operator_id),
    operator: row.operator_name,
    role: row.role,
    via: row.via as AuditRow["via"],
    action: row.action,
    target: row.target,
    before: row.before,
    after: row.after,
    address: row.address,
  };
}

function jsonCell(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value);
}
