import type { Insertable } from "kysely";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import { insertStatement, jsonRecords } from "../journal/sql-script";
import type { PledgeLoanTable, PledgeProductTable, PledgeRecordTable } from "../store/schema";

type ProductRow = Omit<Insertable<PledgeProductTable>, "sort">;

/**
 * Crypto loans' query-table rows of one batch (decision 051): loans and products as they stand
 * after the batch's last command touching them (a later state replaces an earlier), the records
 * appended.
 */
export class PledgeRows implements ProjectionRows {
  private readonly loans = new Map<string, Insertable<PledgeLoanTable>>();
  /** Loans closed in the batch: their rows end at zero with how they ended (after any insert of theirs above). */
  private readonly closed = new Map<string, { id: string; status: "repaid" | "liquidated"; updated_at: string }>();
  private readonly products = new Map<string, ProductRow>();
  private readonly records: Array<Insertable<PledgeRecordTable>> = [];

  loan(row: Insertable<PledgeLoanTable>): void {
    this.loans.set(row.id, row);
  }

  close(id: string, status: "repaid" | "liquidated", stamp: string): void {
    this.closed.set(id, { id, status, updated_at: stamp });
  }

  product(row: ProductRow): void {
    this.products.set(row.id, row);
  }

  record(row: Insertable<PledgeRecordTable>): void {
    this.records.push(row);
  }

  absorb(later: PledgeRows): void {
    for (const [k, v] of later.loans) this.loans.set(k, v);
    for (const [k, v] of later.products) this.products.set(k, v);
    for (const [k, v] of later.closed) this.closed.set(k, v);
    this.records.push(...later.records);
  }

  statements(): string[] {
    const script: string[] = [];
    const add = (statement: string | null) => statement && script.push(statement);
    add(
      insertStatement(
        "pledge_product",
        [...this.products.values()],
        `on conflict (id) do update set hourly_rate = excluded.hourly_rate, overdue_rate = excluded.overdue_rate,
          initial_ltv = excluded.initial_ltv, call_ltv = excluded.call_ltv, liquidation_ltv = excluded.liquidation_ltv,
          min_amount = excluded.min_amount, max_amount = excluded.max_amount, enabled = excluded.enabled`,
      ),
    );
    add(
      insertStatement(
        "pledge_loan",
        [...this.loans.values()],
        `on conflict (id) do update set principal = excluded.principal, interest = excluded.interest, collateral = excluded.collateral,
          next_hour = excluded.next_hour, warned = excluded.warned, status = excluded.status, updated_at = excluded.updated_at`,
      ),
    );
    if (this.closed.size)
      add(`update pledge_loan l set principal = 0, interest = 0, collateral = 0, warned = false, status = v.status, updated_at = v.updated_at
        from ${jsonRecords([...this.closed.values()], "v", "id varchar, status varchar, updated_at timestamptz")} where l.id = v.id`);
    add(insertStatement("pledge_record", this.records));
    return script;
  }
}

export const PLEDGE_ROWS: RowsKind<PledgeRows> = { name: "pledge", order: 55, create: () => new PledgeRows() };
