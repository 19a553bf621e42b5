import type { Kysely, Selectable } from "kysely";
import type { DepositView } from "../../../protocol/endpoints/deposits";
import type { Database, WalletDepositTable } from "../../store/schema";

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
    return { records: records.map(viewOf), total: Number(count.n) };
  }

  /**
   * Every member's deposits for operators, newest first, `size` a page, filtered by member, coin
   * and state; `next` is where the following page starts (`before`), null on the last.
   */
  async recent(filter: { uid?: string; coin?: string; state?: string; before?: string }, size: number) {
    let rows = this.db.selectFrom("wallet_deposit as d").innerJoin("member as m", "m.id", "d.member_id").selectAll("d").select("m.uid");
    if (filter.uid) rows = rows.where("m.uid", "=", filter.uid);
    if (filter.coin) rows = rows.where("d.coin", "=", filter.coin);
    if (filter.state) rows = rows.where("d.state", "=", filter.state as DepositView["state"]);
    if (filter.before) rows = rows.where("d.seq", "<", filter.before);
    const found = await rows
      .orderBy("d.seq", "desc")
      .limit(size + 1)
      .execute();
    const page = found.slice(0, size);
    return { rows: page.map((row) => ({ ...viewOf(row), uid: row.uid })), next: found.length > size ? String(page.at(-1)!.seq) : null };
  }
}

type DepositRow = Selectable<WalletDepositTable>;

function viewOf(row: DepositRow): DepositView {
  return {
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
  };
}
