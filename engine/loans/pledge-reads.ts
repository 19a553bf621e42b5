import type { Kysely, Selectable } from "kysely";
import type { PledgeRecordView } from "../../protocol/endpoints/pledge";
import type { Database, PledgeLoanTable } from "../store/schema";
import { pageOf, type Page, type Paging } from "../store/paging";
import { recordView } from "./pledge-views";

/**
 * A member's closed loans and loan records from the tables (decision 051), each read once the
 * member's latest command is projected; open loans are read from memory (`core.pledges`).
 */
export class PledgeReads {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly projected: (memberId: string) => Promise<unknown>,
  ) {}

  /** The member's repaid and liquidated loans, newest first. */
  async closedLoans(memberId: string, paging: Paging): Promise<Page<Selectable<PledgeLoanTable>>> {
    await this.projected(memberId);
    const query = this.db.selectFrom("pledge_loan").where("member_id", "=", memberId).where("status", "<>", "open");
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(paging.pageSize)
        .offset((paging.pageNo - 1) * paging.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return pageOf(rows, Number(count.n), paging);
  }

  /** One of the member's loans as its row keeps it (undefined: none of theirs). */
  async loan(memberId: string, loanId: string): Promise<Selectable<PledgeLoanTable> | undefined> {
    await this.projected(memberId);
    return this.db.selectFrom("pledge_loan").selectAll().where("id", "=", loanId).where("member_id", "=", memberId).executeTakeFirst();
  }

  async records(memberId: string, filter: { loanId?: string; kind?: PledgeRecordView["kind"] }, paging: Paging): Promise<Page<PledgeRecordView>> {
    await this.projected(memberId);
    const query = this.db
      .selectFrom("pledge_record")
      .where("member_id", "=", memberId)
      .$if(filter.loanId !== undefined, (q) => q.where("loan_id", "=", filter.loanId!))
      .$if(filter.kind !== undefined, (q) => q.where("kind", "=", filter.kind!));
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy("id", "desc")
        .limit(paging.pageSize)
        .offset((paging.pageNo - 1) * paging.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return pageOf(rows.map(recordView), Number(count.n), paging);
  }
}
