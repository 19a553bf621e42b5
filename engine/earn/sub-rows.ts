import type { Insertable } from "kysely";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import { insertStatement, jsonRecords } from "../journal/sql-script";
import type { ReturnApplicationTable, SubProjectTable, SubscriptionStatusRow, SubscriptionTable } from "../store/schema";

type ProjectRow = Omit<Insertable<SubProjectTable>, "sort">;
export type SubscriptionChange = {
  id: string;
  status: SubscriptionStatusRow;
  /** Absent: unchanged. */
  won_quantity?: string;
  won_amount?: string;
  refund?: string;
  application_id?: string;
  updated_at: string;
};

/**
 * The subscriptions' query-table rows of one batch (decision 053): projects as they stand after
 * the batch (configuration, what was asked, when allotted), new subscriptions, each later change
 * of a subscription (its allotment, its status, its application), and return applications made
 * and paid. A later change of a row in the batch replaces an earlier.
 */
export class SubRows implements ProjectionRows {
  private readonly projects = new Map<string, ProjectRow>();
  private readonly added = new Map<string, Insertable<SubscriptionTable>>();
  private readonly changed = new Map<string, SubscriptionChange>();
  private readonly applications = new Map<string, Insertable<ReturnApplicationTable>>();
  private readonly paid = new Map<string, string>();

  project(row: ProjectRow): void {
    this.projects.set(row.id, row);
  }

  subscription(row: Insertable<SubscriptionTable>): void {
    this.added.set(row.id, row);
  }

  change(row: SubscriptionChange): void {
    this.changed.set(row.id, { ...this.changed.get(row.id), ...row });
  }

  application(row: Insertable<ReturnApplicationTable>): void {
    this.applications.set(row.id, row);
  }

  applicationPaid(id: string, stamp: string): void {
    this.paid.set(id, stamp);
  }

  absorb(later: SubRows): void {
    for (const [k, v] of later.projects) this.projects.set(k, v);
    for (const [k, v] of later.added) this.added.set(k, v);
    // A later change merges into an earlier one (a settlement's amounts stay when its application follows).
    for (const v of later.changed.values()) this.change(v);
    for (const [k, v] of later.applications) this.applications.set(k, v);
    for (const [k, v] of later.paid) this.paid.set(k, v);
  }

  statements(): string[] {
    const script: string[] = [];
    const add = (statement: string | null) => statement && script.push(statement);
    add(
      insertStatement(
        "sub_project",
        [...this.projects.values()],
        `on conflict (id) do update set type = excluded.type, asset = excluded.asset, quote_asset = excluded.quote_asset,
          price = excluded.price, lot = excluded.lot, supply = excluded.supply, min_per_member = excluded.min_per_member,
          max_per_member = excluded.max_per_member, start_at = excluded.start_at, end_at = excluded.end_at,
          return_by_application = excluded.return_by_application, requested = excluded.requested, allotted_at = excluded.allotted_at`,
      ),
    );
    add(insertStatement("subscription", [...this.added.values()], "on conflict (id) do nothing"));
    if (this.changed.size)
      add(`update subscription s set status = v.status, won_quantity = coalesce(v.won_quantity, s.won_quantity),
          won_amount = coalesce(v.won_amount, s.won_amount), refund = coalesce(v.refund, s.refund),
          application_id = coalesce(v.application_id, s.application_id), updated_at = v.updated_at
        from ${jsonRecords(
          [...this.changed.values()],
          "v",
          "id varchar, status varchar, won_quantity numeric, won_amount numeric, refund numeric, application_id varchar, updated_at timestamptz",
        )} where s.id = v.id`);
    add(insertStatement("return_application", [...this.applications.values()], "on conflict (id) do nothing"));
    if (this.paid.size)
      add(`update return_application a set status = 'paid', paid_at = v.paid_at
        from ${jsonRecords(
          [...this.paid].map(([id, paid_at]) => ({ id, paid_at })),
          "v",
          "id varchar, paid_at timestamptz",
        )} where a.id = v.id`);
    return script;
  }
}

export const SUB_ROWS: RowsKind<SubRows> = { name: "subscriptions", order: 58, create: () => new SubRows() };
