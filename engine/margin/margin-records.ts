import type { Kysely } from "kysely";
import { EXPORT_MAX_ROWS } from "../../protocol/endpoints/order-history";
import type { MarginRecordView } from "../../protocol/endpoints/margin";
import { ResultCode } from "../../protocol/result-codes";
import { trimDecimal } from "../contracts/contract-config";
import { csvRecord } from "../core/reports/csv";
import { csvTime, dayRange, exportFilename } from "../core/spot/order-history-view";
import { Refusal } from "../locales/refusal";
import type { CsvExport } from "../spot/order-history-service";
import type { Database } from "../store/schema";
import { pageOf, type Page, type Paging } from "../store/paging";

export interface MarginRecordFilter {
  mode: "all" | "fixed";
  symbol?: string;
  coin?: string;
  kind?: MarginRecordView["kind"];
  /** First and last day (UTC), inclusive. */
  from?: string;
  to?: string;
}

const CSV_HEADER = ["Time (UTC)", "Record ID", "Mode", "Symbol", "Coin", "Kind", "Amount", "Principal", "Interest"];
const EXPORT_BATCH = 1000;

/**
 * A member's margin records (borrows, repayments, interest charges, transfers, write-offs),
 * newest first, from `margin_record` once the member's latest command is projected
 * (`projectedFor`): a page of them, or all of a filter as CSV.
 */
export class MarginRecords {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly projected: (memberId: string) => Promise<unknown>,
  ) {}

  async ofMember(memberId: string, filter: MarginRecordFilter, paging: Paging): Promise<Page<MarginRecordView>> {
    await this.projected(memberId);
    const query = this.recordsOf(memberId, filter);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy("id", "desc")
        .limit(paging.pageSize)
        .offset((paging.pageNo - 1) * paging.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return pageOf(rows.map(toView), Number(count.n), paging);
  }

  /** Every record of the filter as CSV (header first), read in batches as the lines are taken. */
  async export(memberId: string, filter: MarginRecordFilter, now: number): Promise<CsvExport> {
    await this.projected(memberId);
    const query = this.recordsOf(memberId, filter);
    const { n } = await query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow();
    if (Number(n) > EXPORT_MAX_ROWS) throw Refusal.of(ResultCode.BAD_REQUEST, "orders.export_too_many", { max: EXPORT_MAX_ROWS.toLocaleString("en") });
    async function* lines() {
      yield csvRecord(CSV_HEADER);
      let before: string | undefined;
      for (;;) {
        const rows = await query
          .$if(before !== undefined, (q) => q.where("id", "<", before!))
          .selectAll()
          .orderBy("id", "desc")
          .limit(EXPORT_BATCH)
          .execute();
        for (const row of rows) {
          const r = toView(row);
          yield csvRecord([csvTime(r.createdAt), r.id, r.mode, r.symbolName ?? "", r.coin, r.kind, r.amount, r.principal, r.interest]);
        }
        if (rows.length < EXPORT_BATCH) return;
        before = String(rows[rows.length - 1]!.id);
      }
    }
    return {
      filename: exportFilename(
        filter.mode === "all" ? "margin-cross-records" : "margin-isolated-records",
        { symbol: filter.symbol, from: filter.from, to: filter.to },
        now,
      ),
      lines: lines(),
    };
  }

  private recordsOf(memberId: string, filter: MarginRecordFilter) {
    const { start, end } = dayRange(filter.from, filter.to);
    return this.db
      .selectFrom("margin_record")
      .where("member_id", "=", memberId)
      .$if(filter.mode === "all", (q) => q.where("scope", "=", "all"))
      .$if(filter.mode === "fixed", (q) => (filter.symbol ? q.where("scope", "=", filter.symbol) : q.where("scope", "<>", "all")))
      .$if(filter.coin !== undefined, (q) => q.where("asset", "=", filter.coin!))
      .$if(filter.kind !== undefined, (q) => q.where("kind", "=", filter.kind!))
      .$if(start !== undefined, (q) => q.where("created_at", ">=", start!))
      .$if(end !== undefined, (q) => q.where("created_at", "<", end!));
  }
}

function toView(r: {
  id: string | number;
  scope: string;
  asset: string;
  kind: MarginRecordView["kind"];
  amount: unknown;
  principal: unknown;
  interest: unknown;
  created_at: Date | string;
}): MarginRecordView {
  return {
    id: String(r.id),
    mode: r.scope === "all" ? "all" : "fixed",
    symbolName: r.scope === "all" ? null : r.scope,
    coin: r.asset,
    kind: r.kind,
    amount: trimDecimal(String(r.amount)),
    principal: trimDecimal(String(r.principal)),
    interest: trimDecimal(String(r.interest)),
    createdAt: new Date(r.created_at).toISOString(),
  };
}
