import type { Kysely } from "kysely";
import type { MarginRecordView } from "../../protocol/endpoints/margin";
import { trimDecimal } from "../contracts/contract-config";
import type { Database } from "../store/schema";
import { pageOf, type Page, type Paging } from "../store/paging";

export interface MarginRecordFilter {
  mode: "all" | "fixed";
  symbol?: string;
  coin?: string;
  kind?: MarginRecordView["kind"];
}

/**
 * A member's margin records (borrows, repayments, interest charges, transfers), newest first,
 * from `margin_record` once the member's latest command is projected (`projectedFor`).
 */
export class MarginRecords {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly projected: (memberId: string) => Promise<unknown>,
  ) {}

  async ofMember(memberId: string, filter: MarginRecordFilter, paging: Paging): Promise<Page<MarginRecordView>> {
    await this.projected(memberId);
    let query = this.db.selectFrom("margin_record").where("member_id", "=", memberId);
    if (filter.mode === "all") query = query.where("scope", "=", "all");
    else query = filter.symbol ? query.where("scope", "=", filter.symbol) : query.where("scope", "<>", "all");
    if (filter.coin) query = query.where("asset", "=", filter.coin);
    if (filter.kind) query = query.where("kind", "=", filter.kind);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy("id", "desc")
        .limit(paging.pageSize)
        .offset((paging.pageNo - 1) * paging.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    const records = rows.map((r) => ({
      id: String(r.id),
      mode: r.scope === "all" ? ("all" as const) : ("fixed" as const),
      symbolName: r.scope === "all" ? null : r.scope,
      coin: r.asset,
      kind: r.kind,
      amount: trimDecimal(String(r.amount)),
      principal: trimDecimal(String(r.principal)),
      interest: trimDecimal(String(r.interest)),
      createdAt: new Date(r.created_at).toISOString(),
    }));
    return pageOf(records, Number(count.n), paging);
  }
}
