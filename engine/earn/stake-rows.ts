import type { Insertable } from "kysely";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import { insertStatement, jsonRecords } from "../journal/sql-script";
import type { StakeProductTable, StakeRecordTable, StakeTable } from "../store/schema";

type ProductRow = Omit<Insertable<StakeProductTable>, "sort">;
type Ended = { id: string; status: "redeemed" | "matured" | "early"; updated_at: string };

/**
 * Staking's query-table rows of one batch (decision 052): stakes and products as they stand after
 * the batch's last command touching them (a later state replaces an earlier), the last day credited,
 * the records appended. A day's interest writes no stake row: it follows from the day credited.
 */
export class StakeRows implements ProjectionRows {
  private readonly stakes = new Map<string, Insertable<StakeTable>>();
  private readonly ended = new Map<string, Ended>();
  private readonly products = new Map<string, ProductRow>();
  private readonly records: Array<Insertable<StakeRecordTable>> = [];
  private creditedThrough: string | null = null;

  stake(row: Insertable<StakeTable>): void {
    this.stakes.set(row.id, row);
  }

  end(id: string, status: Ended["status"], stamp: string): void {
    this.ended.set(id, { id, status, updated_at: stamp });
  }

  product(row: ProductRow): void {
    this.products.set(row.id, row);
  }

  record(row: Insertable<StakeRecordTable>): void {
    this.records.push(row);
  }

  credited(through: string): void {
    this.creditedThrough = through;
  }

  absorb(later: StakeRows): void {
    for (const [k, v] of later.stakes) this.stakes.set(k, v);
    for (const [k, v] of later.ended) this.ended.set(k, v);
    for (const [k, v] of later.products) this.products.set(k, v);
    this.records.push(...later.records);
    if (later.creditedThrough !== null) this.creditedThrough = later.creditedThrough;
  }

  statements(): string[] {
    const script: string[] = [];
    const add = (statement: string | null) => statement && script.push(statement);
    add(
      insertStatement(
        "stake_product",
        [...this.products.values()],
        `on conflict (id) do update set yearly_rate = excluded.yearly_rate, cap = excluded.cap, min_amount = excluded.min_amount,
          max_per_member = excluded.max_per_member, enabled = excluded.enabled`,
      ),
    );
    add(
      insertStatement(
        "stake",
        [...this.stakes.values()],
        `on conflict (id) do update set principal = excluded.principal, period_start = excluded.period_start,
          status = excluded.status, updated_at = excluded.updated_at`,
      ),
    );
    if (this.ended.size)
      add(`update stake s set status = v.status, updated_at = v.updated_at
        from ${jsonRecords([...this.ended.values()], "v", "id varchar, status varchar, updated_at timestamptz")} where s.id = v.id`);
    add(insertStatement("stake_record", this.records));
    if (this.creditedThrough !== null)
      add(
        insertStatement(
          "stake_state",
          [{ id: 1, credited_through: this.creditedThrough }],
          "on conflict (id) do update set credited_through = excluded.credited_through",
        ),
      );
    return script;
  }
}

export const STAKE_ROWS: RowsKind<StakeRows> = { name: "staking", order: 57, create: () => new StakeRows() };
