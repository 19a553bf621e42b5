import { sql, type Kysely } from "kysely";
import { MEMBER_SEARCH_ROWS, type MemberProfile, type MemberSummary } from "../../protocol/endpoints/members-admin";
import { KYC_STATUS } from "../../protocol/member";
import { ResultCode } from "../../protocol/result-codes";
import { Refusal } from "../locales/refusal";
import type { NoticeService } from "../notices/notice-service";
import type { OperatorAct } from "../operators/audit";
import type { Database } from "../store/schema";
import { revokeSessions } from "./sessions";

/** Members a search lists at most, and the rows of each list on a member's page. */
const PROFILE_ROWS = 20;

/** What a member's page shows from the other areas: balances from memory and the spot orders. */
export interface MemberAreas {
  holdings(memberId: string): MemberProfile["holdings"];
  orders(memberId: string, scope: "current" | "history", size: number): Promise<MemberProfile["openOrders"]>;
}

/**
 * Members as operators see them (issue 29): search by uid, e-mail or phone, a member's page
 * (identity, security, balances, orders, devices, logins), freezing and unfreezing, and the reset
 * of a lost authenticator. Every change writes its audit row in its own transaction and names the
 * operator's stated reason; the member's notification of a reset commits with it.
 */
export class MemberAdmin {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly areas: MemberAreas | null,
    private readonly notices?: NoticeService,
  ) {}

  /**
   * Members whose uid is the text, whose e-mail starts with it (any case), or whose phone number
   * ends with its digits (a number is typed with or without its area code); newest first.
   */
  async search(text: string): Promise<MemberSummary[]> {
    const query = text.trim();
    const digits = query.replace(/[\s()+-]/g, "");
    const rows = await this.summaries()
      .where((eb) => {
        const matches = [eb("m.uid", "=", query.toUpperCase())];
        if (query.length >= 2) matches.push(eb(sql`lower(m.email)`, "like", `${escapeLike(query.toLowerCase())}%`));
        // The number's last digits, or the area code and number typed together (migration 036's index).
        if (/^\d{4,20}$/.test(digits)) matches.push(eb(sql`reverse(coalesce(m.area_code, '') || m.phone)`, "like", `${[...digits].reverse().join("")}%`));
        return eb.or(matches);
      })
      .orderBy("m.id", "desc")
      .limit(MEMBER_SEARCH_ROWS)
      .execute();
    return rows.map(summaryOf);
  }

  /** The newest members (the page before a search). */
  async newest(): Promise<MemberSummary[]> {
    const rows = await this.summaries().orderBy("m.id", "desc").limit(MEMBER_SEARCH_ROWS).execute();
    return rows.map(summaryOf);
  }

  /** A member's page, or null when no member has that uid. */
  async profile(uid: string): Promise<MemberProfile | null> {
    const row = await this.summaries()
      .leftJoin("member as inviter", "inviter.id", "m.invited_by")
      .select([
        "m.frozen_reason",
        "m.lang",
        "inviter.uid as inviter_uid",
        sql<boolean>`m.trade_password_hash is not null`.as("trade_password_set"),
        sql<boolean>`m.google_pending_secret is not null`.as("google_pending"),
      ])
      .where("m.uid", "=", uid)
      .executeTakeFirst();
    if (!row) return null;
    const memberId = row.id;
    const [devices, logins, openOrders, recentOrders] = await Promise.all([
      this.db
        .selectFrom("device_session")
        .select(["name", "ip", "user_agent", "created_at", "last_seen_at"])
        .where("member_id", "=", memberId)
        .where("revoked_at", "is", null)
        .orderBy("last_seen_at", "desc")
        .limit(PROFILE_ROWS)
        .execute(),
      this.db
        .selectFrom("login_log")
        .select(["ip", "device_name", "user_agent", "created_at"])
        .where("member_id", "=", memberId)
        .orderBy("id", "desc")
        .limit(PROFILE_ROWS)
        .execute(),
      this.areas?.orders(memberId, "current", PROFILE_ROWS) ?? [],
      this.areas?.orders(memberId, "history", PROFILE_ROWS) ?? [],
    ]);
    return {
      ...summaryOf(row),
      frozenReason: row.frozen_reason,
      lang: row.lang,
      invitedBy: row.inviter_uid,
      tradePasswordSet: Boolean(row.trade_password_set),
      googlePending: Boolean(row.google_pending),
      holdings: this.areas?.holdings(memberId) ?? [],
      openOrders,
      recentOrders,
      devices: devices.map((d) => ({
        name: d.name,
        ip: d.ip,
        userAgent: d.user_agent,
        createdAt: iso(d.created_at),
        lastSeenAt: iso(d.last_seen_at),
      })),
      logins: logins.map((l) => ({ ip: l.ip, device: l.device_name, userAgent: l.user_agent, at: iso(l.created_at) })),
    };
  }

  /**
   * Freezes the member (no login; every session ends in the same transaction) or unfreezes them,
   * with the operator's reason. Refused when the member is already in that state: of two operators
   * at once, one acts and the other is told so.
   */
  async setFrozen(uid: string, frozen: boolean, reason: string, now: number, act: OperatorAct): Promise<MemberSummary> {
    const memberId = await this.db.transaction().execute(async (trx) => {
      const member = await trx.selectFrom("member").select(["id", "frozen_at", "frozen_reason"]).where("uid", "=", uid).forUpdate().executeTakeFirst();
      if (!member) throw Refusal.plain(ResultCode.NOT_FOUND, `no member with uid ${uid}`, "NOT_FOUND");
      if ((member.frozen_at !== null) === frozen) {
        throw Refusal.plain(ResultCode.CONFLICT, `member ${uid} is ${frozen ? "frozen" : "not frozen"} already`, "DECIDED_ALREADY");
      }
      await trx
        .updateTable("member")
        .set(frozen ? { frozen_at: new Date(now), frozen_reason: reason } : { frozen_at: null, frozen_reason: null })
        .where("id", "=", member.id)
        .execute();
      if (frozen) await revokeSessions(trx, { memberId: member.id }, now);
      await act.write(trx, `member:${uid}`, { frozen: member.frozen_at !== null }, { frozen, reason }, now);
      return member.id;
    });
    if (frozen) this.notices?.sessionsEnded(memberId, now);
    return this.summaryOfUid(uid);
  }

  /**
   * Removes the member's Google authenticator (bound or being bound) after they lost it, with the
   * operator's reason; the member is told in the same transaction. Refused when none is set.
   */
  async resetSecondFactor(uid: string, reason: string, now: number, act: OperatorAct): Promise<MemberSummary> {
    let memberId = "";
    await this.db.transaction().execute(async (trx) => {
      const member = await trx
        .selectFrom("member")
        .select(["id", "google_secret", "google_pending_secret"])
        .where("uid", "=", uid)
        .forUpdate()
        .executeTakeFirst();
      if (!member) throw Refusal.plain(ResultCode.NOT_FOUND, `no member with uid ${uid}`, "NOT_FOUND");
      if (member.google_secret === null && member.google_pending_secret === null) {
        throw Refusal.plain(ResultCode.CONFLICT, `member ${uid} has no authenticator to reset`, "DECIDED_ALREADY");
      }
      memberId = member.id;
      await trx.updateTable("member").set({ google_secret: null, google_pending_secret: null }).where("id", "=", member.id).execute();
      await this.notices?.record(trx, { memberId: member.id, type: "security_google_reset_support" }, now);
      await act.write(trx, `member:${uid}`, { google: member.google_secret !== null ? "bound" : "pending" }, { google: "reset", reason }, now);
    });
    this.notices?.told(memberId);
    return this.summaryOfUid(uid);
  }

  private async summaryOfUid(uid: string): Promise<MemberSummary> {
    return summaryOf(await this.summaries().where("m.uid", "=", uid).executeTakeFirstOrThrow());
  }

  private summaries() {
    return this.db
      .selectFrom("member as m")
      .select([
        "m.id",
        "m.uid",
        "m.email",
        "m.area_code",
        "m.phone",
        "m.created_at",
        "m.frozen_at",
        sql<boolean>`m.google_secret is not null`.as("google_bound"),
        sql<number>`coalesce((select k.status from kyc_submission k where k.member_id = m.id order by k.id desc limit 1), ${KYC_STATUS.none})`.as("kyc"),
      ]);
  }
}

interface SummaryRow {
  uid: string;
  email: string | null;
  area_code: string | null;
  phone: string | null;
  created_at: Date | string;
  frozen_at: Date | string | null;
  google_bound: boolean;
  kyc: number;
}

function summaryOf(row: SummaryRow): MemberSummary {
  return {
    uid: row.uid,
    email: row.email,
    phone: row.phone ? `+${row.area_code ?? ""} ${row.phone}` : null,
    createdAt: iso(row.created_at),
    frozenAt: row.frozen_at === null ? null : iso(row.frozen_at),
    googleBound: Boolean(row.google_bound),
    kyc: Number(row.kyc) as MemberSummary["kyc"],
  };
}

const iso = (at: Date | string) => new Date(at).toISOString();
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
