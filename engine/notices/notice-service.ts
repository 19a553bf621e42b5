import type { Kysely, Selectable, Transaction } from "kysely";
import { NOTICE_STACK, NOTICE_TYPES, type Notice, type NoticeType } from "../../protocol/endpoints/notices";
import type { LanguageCode } from "../../protocol/languages";
import { topics } from "../../protocol/realtime";
import type { EndMember, Publish } from "../realtime/realtime";
import type { Database, MemberNoticeTable } from "../store/schema";
import { pageOf, type Page, type Paging } from "../store/paging";
import type { NewNotice } from "./core-notices";
import { noticeText } from "./notice-texts";

type Executor = Kysely<Database> | Transaction<Database>;

/** A notification the member service writes (a KYC decision, a security change): no dedupe key, it happens once. */
export type AccountNotice = Pick<NewNotice, "memberId" | "type"> & { params?: Record<string, string>; orderCode?: string | null };

/**
 * A member's notifications (issue 14, decision 031): their list and unread count, marking them
 * read, and writing those that are not the core's (the core's are the projection's rows,
 * `notice-product.ts`). Each member reads and marks only their own. Texts are rendered in the
 * request's language on every read.
 */
export class NoticeService {
  private publish: Publish = () => {};
  private endMember: EndMember = () => {};

  constructor(
    private readonly db: Kysely<Database>,
    /** Waits until the member's commands are in the tables (their notifications trail the answer). */
    private readonly projected: (memberId: string) => Promise<unknown> = async () => true,
  ) {}

  /** Starts pushing "new notifications" to members' `refresh` topics (the socket server exists only once the HTTP server does). */
  startPublishing(publish: Publish, endMember?: EndMember): void {
    this.publish = publish;
    if (endMember) this.endMember = endMember;
  }

  /**
   * The member's sessions ended (a freeze, a new password), after that committed: their open pages
   * are told to read everything again (which now finds them signed out), then stop hearing them.
   */
  sessionsEnded(memberId: string, now: number): void {
    this.publish(topics.refresh(memberId), { symbols: [], orders: true, balances: true, notices: true });
    this.endMember(memberId, now);
  }

  /**
   * Writes an account notification in the caller's transaction (or on its own), so it is written
   * with the change it tells of or not at all. `told` pushes it, once the transaction committed.
   */
  async record(executor: Executor, notice: AccountNotice, now: number): Promise<void> {
    await executor
      .insertInto("member_notice")
      .values({
        member_id: notice.memberId,
        type: notice.type,
        service_type: NOTICE_TYPES[notice.type].serviceType,
        order_code: notice.orderCode ?? null,
        params: JSON.stringify(notice.params ?? {}),
        created_at: new Date(now),
        dedupe_key: null,
      })
      .execute();
  }

  /** Tells the member's open pages that they have news (after the write committed). */
  told(memberId: string): void {
    this.publish(topics.refresh(memberId), { symbols: [], orders: false, balances: false, notices: true });
  }

  /** Writes an account notification on its own and pushes it. */
  async tell(notice: AccountNotice, now: number): Promise<void> {
    await this.record(this.db, notice, now);
    this.told(notice.memberId);
  }

  /** The member's notifications, newest first (only the unread with `unreadOnly`), and how many are unread. */
  async list(memberId: string, lang: LanguageCode, paging: Paging, unreadOnly: boolean): Promise<Page<Notice> & { unread: number }> {
    await this.projected(memberId);
    let query = this.db.selectFrom("member_notice").where("member_id", "=", memberId);
    if (unreadOnly) query = query.where("read_at", "is", null);
    const [rows, total, unread] = await Promise.all([
      query
        .selectAll()
        .orderBy("id", "desc")
        .limit(paging.pageSize)
        .offset((paging.pageNo - 1) * paging.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
      this.unreadCount(memberId),
    ]);
    return {
      ...pageOf(
        rows.map((r) => view(r, lang)),
        Number(total.n),
        paging,
      ),
      unread,
    };
  }

  /**
   * How many are unread, the member's newest id, and the unread ones after `after` (the newest
   * the page has shown): the newest four at most (spec §9), oldest first as a stack shows them.
   */
  async unread(memberId: string, lang: LanguageCode, after: string | undefined) {
    await this.projected(memberId);
    const [unread, last, latest] = await Promise.all([
      this.unreadCount(memberId),
      this.db.selectFrom("member_notice").select("id").where("member_id", "=", memberId).orderBy("id", "desc").limit(1).executeTakeFirst(),
      after === undefined
        ? Promise.resolve([])
        : this.db
            .selectFrom("member_notice")
            .selectAll()
            .where("member_id", "=", memberId)
            .where("read_at", "is", null)
            .where("id", ">", after)
            .orderBy("id", "desc")
            .limit(NOTICE_STACK)
            .execute(),
    ]);
    return { unread, lastId: last?.id ?? null, latest: latest.reverse().map((r) => view(r, lang)) };
  }

  /** Marks the member's own (another member's ids are skipped); answers how many are still unread. */
  async markRead(memberId: string, which: { ids?: string[]; all?: boolean }, now: number): Promise<{ unread: number }> {
    let update = this.db
      .updateTable("member_notice")
      .set({ read_at: new Date(now) })
      .where("member_id", "=", memberId)
      .where("read_at", "is", null);
    if (!which.all) update = update.where("id", "in", which.ids ?? []);
    await update.execute();
    return { unread: await this.unreadCount(memberId) };
  }

  private async unreadCount(memberId: string): Promise<number> {
    const row = await this.db
      .selectFrom("member_notice")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("member_id", "=", memberId)
      .where("read_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

function view(row: Selectable<MemberNoticeTable>, lang: LanguageCode): Notice {
  const type = row.type as NoticeType;
  const params = typeof row.params === "string" ? (JSON.parse(row.params) as Record<string, string>) : row.params;
  return {
    id: String(row.id),
    type,
    serviceType: NOTICE_TYPES[type].serviceType,
    orderCode: row.order_code,
    content: noticeText(lang, type, params),
    isNew: row.read_at === null,
    changeUser: NOTICE_TYPES[type].changeUser,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
