import { sql, type Kysely } from "kysely";
import type { StakeRecordView, StakeView } from "../../protocol/endpoints/stake";
import type { Database } from "../store/schema";
import { pageOf, type Page, type Paging } from "../store/paging";
import { endedStakeView, stakeRecordView } from "./stake-views";

/**
 * A member's ended stakes and staking records from the tables (decision 052), each read once the
 * member's latest command is projected; running stakes are read from memory (`core.staking`).
 */
export class StakeReads {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly projected: (memberId: string) => Promise<unknown>,
  ) {}

  /** The member's redeemed, matured and early-redeemed stakes, newest first, with what each paid. */
  async endedStakes(memberId: string, coin: string | undefined, paging: Paging): Promise<Page<StakeView>> {
    await this.projected(memberId);
    const query = this.db
      .selectFrom("stake")
      .where("member_id", "=", memberId)
      .where("status", "<>", "running")
      .$if(coin !== undefined, (q) => q.where("asset", "=", coin!));
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
    const ids = rows.map((r) => r.id);
    const paid = ids.length
      ? await sql<{ stake_id: string; principal: string; interest: string; forfeited: string }>`
          select stake_id, trim_scale(sum(principal))::text as principal, trim_scale(sum(interest))::text as interest,
            trim_scale(sum(forfeited))::text as forfeited
          from stake_record where member_id = ${memberId} and kind <> 'invest' and stake_id in (${sql.join(ids)}) group by stake_id`.execute(this.db)
      : { rows: [] };
    const byStake = new Map(paid.rows.map((p) => [p.stake_id, p]));
    return pageOf(
      rows.map((r) => endedStakeView(r, byStake.get(r.id))),
      Number(count.n),
      paging,
    );
  }

  async records(memberId: string, filter: { kind?: StakeRecordView["kind"]; coin?: string }, paging: Paging): Promise<Page<StakeRecordView>> {
    await this.projected(memberId);
    const query = this.db
      .selectFrom("stake_record")
      .where("member_id", "=", memberId)
      .$if(filter.kind !== undefined, (q) => q.where("kind", "=", filter.kind!))
      .$if(filter.coin !== undefined, (q) => q.where("asset", "=", filter.coin!));
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy("id", "desc")
        .limit(paging.pageSize)
        .offset((paging.pageNo - 1) * paging.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return pageOf(rows.map(stakeRecordView), Number(count.n), paging);
  }
}
