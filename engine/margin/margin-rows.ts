import type { Insertable } from "kysely";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import { insertStatement, jsonRecords } from "../journal/sql-script";
import type { MarginAccountTable, MarginLoanTable, MarginPairTable, MarginPoolTable, MarginRecordTable } from "../store/schema";

type LoanRow = Insertable<MarginLoanTable>;
type Gone = { member_id: string; scope: string; asset: string; gone: true };

/**
 * Margin's query-table rows of one batch (decision 050): loans, margin accounts and pools as they
 * stand after the batch's last command touching them (a later state replaces an earlier), and the
 * records, facts appended.
 */
export class MarginRows implements ProjectionRows {
  private readonly loans = new Map<string, LoanRow | Gone>();
  private readonly accounts = new Map<string, Insertable<MarginAccountTable>>();
  private readonly pools = new Map<string, Pick<MarginPoolTable, "asset" | "hourly_rate" | "lend_limit" | "min_borrow">>();
  private readonly pairs = new Map<string, Pick<MarginPairTable, "symbol" | "base" | "quote" | "max_leverage">>();
  private readonly records: Array<Insertable<MarginRecordTable>> = [];

  loan(row: LoanRow): void {
    this.loans.set(`${row.member_id}|${row.scope}|${row.asset}`, row);
  }

  loanGone(memberId: string, scope: string, asset: string): void {
    this.loans.set(`${memberId}|${scope}|${asset}`, { member_id: memberId, scope, asset, gone: true });
  }

  account(row: Insertable<MarginAccountTable>): void {
    this.accounts.set(`${row.member_id}|${row.scope}`, row);
  }

  pool(row: Pick<MarginPoolTable, "asset" | "hourly_rate" | "lend_limit" | "min_borrow">): void {
    this.pools.set(row.asset, row);
  }

  /** A market on margin as it stands (a new one listed after the seeded ones). */
  pair(row: Pick<MarginPairTable, "symbol" | "base" | "quote" | "max_leverage">): void {
    this.pairs.set(row.symbol, row);
  }

  record(row: Insertable<MarginRecordTable>): void {
    this.records.push(row);
  }

  absorb(later: MarginRows): void {
    for (const [k, v] of later.loans) this.loans.set(k, v);
    for (const [k, v] of later.accounts) this.accounts.set(k, v);
    for (const [k, v] of later.pools) this.pools.set(k, v);
    for (const [k, v] of later.pairs) this.pairs.set(k, v);
    this.records.push(...later.records);
  }

  statements(): string[] {
    const script: string[] = [];
    const add = (statement: string | null) => statement && script.push(statement);
    const kept: LoanRow[] = [];
    const gone: Gone[] = [];
    for (const row of this.loans.values()) ("gone" in row ? gone : kept).push(row as never);
    if (gone.length)
      add(
        `delete from margin_loan l using ${jsonRecords(
          gone.map(({ member_id, scope, asset }) => ({ member_id, scope, asset })),
          "v",
          "member_id varchar, scope varchar, asset varchar",
        )} where l.member_id = v.member_id and l.scope = v.scope and l.asset = v.asset`,
      );
    add(
      insertStatement(
        "margin_loan",
        kept,
        `on conflict (member_id, scope, asset) do update set principal = excluded.principal, interest = excluded.interest,
          next_hour = excluded.next_hour, updated_at = excluded.updated_at`,
      ),
    );
    add(
      insertStatement(
        "margin_account",
        [...this.accounts.values()],
        "on conflict (member_id, scope) do update set leverage = excluded.leverage, warned = excluded.warned",
      ),
    );
    if (this.pools.size)
      add(`update margin_pool p set hourly_rate = v.hourly_rate, lend_limit = v.lend_limit, min_borrow = v.min_borrow
        from ${jsonRecords([...this.pools.values()], "v", "asset varchar, hourly_rate numeric, lend_limit numeric, min_borrow numeric")}
        where p.asset = v.asset`);
    add(
      insertStatement(
        "margin_pair",
        [...this.pairs.values()].map((p) => ({ ...p, sort: 1000 })),
        "on conflict (symbol) do update set max_leverage = excluded.max_leverage",
      ),
    );
    add(insertStatement("margin_record", this.records));
    return script;
  }
}

export const MARGIN_ROWS: RowsKind<MarginRows> = { name: "margin", order: 50, create: () => new MarginRows() };
