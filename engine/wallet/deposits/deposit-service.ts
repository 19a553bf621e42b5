import type { Kysely } from "kysely";
import type { DepositView } from "../../../protocol/endpoints/deposits";
import type { Database } from "../../store/schema";

/** A NUMERIC as the API shows it: no trailing zeros. */
function trimDecimal(value: string): string {
  return value.includes(".") ? value.replace(/\.?0+$/, "") : value;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

/** A member's deposits as the deposit watcher recorded them (decision 027). */
export class DepositService {
  constructor(private readonly db: Kysely<Database>) {}

  /** The member's own deposits, newest first, optionally of one coin. */
  async ofMember(memberId: string, page: { pageNo: number; pageSize: number; coin?: string }): Promise<{ records: DepositView[]; total: number }> {
    let rows = this.db.selectFrom("wallet_deposit").where("member_id", "=", memberId);
    if (page.coin) rows = rows.where("coin", "=", page.coin);
    const [records, count] = await Promise.all([
      rows
        .selectAll()
        .orderBy("seq", "desc")
        .limit(page.pageSize)
        .offset((page.pageNo - 1) * page.pageSize)
        .execute(),
      rows.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return {
      records: records.map((row) => ({
        id: row.id,
        coin: row.coin,
        network: row.network,
        address: row.address,
        tag: row.tag,
        amount: trimDecimal(row.amount),
        txid: row.txid,
        state: row.state,
        confirmations: row.confirmations,
        confirmationsRequired: row.required,
        createdAt: iso(row.created_at),
        creditedAt: row.credited_at === null ? null : iso(row.credited_at),
      })),
      total: Number(count.n),
    };
  }
}
