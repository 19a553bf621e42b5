import { AttemptLimiter } from "../core/members/attempt-limiter";
import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import { FALLBACK_LANGUAGE, type LanguageCode } from "../../protocol/languages";
import type { MemberInfo, TokenGrant } from "../../protocol/member";
import { ResultCode } from "../../protocol/result-codes";
import { base32Encode, otpauthUri, verifyTotp } from "../core/members/totp";
import { readSiteConfig } from "../configuration/site-settings";
import { engineText } from "../locales/engine-texts";
import { Refusal } from "../locales/refusal";
import type { NoticeService } from "../notices/notice-service";
import type { NoticeType } from "../../protocol/endpoints/notices";
import type { Database, MemberTable } from "../store/schema";
import { memberView } from "./member-view";
import { accountOf, createMember, memberOfAccount, type NewMember } from "./new-member";
import { phoneFitsArea } from "./phone-rules";
import { RefreshGrace } from "./refresh-grace";
import { deviceCookieOf, issueDeviceCookie, revokeDeviceCookies } from "./device-cookies";
import { authenticate, openSession, rememberLanguage, revokeSessions, rotateSession, type AuthedMember } from "./sessions";
import { VerificationCodes, type CodeSettings, type WithdrawalDetails } from "./verification-codes";

export type MemberRow = Selectable<MemberTable>;
type AccountFields = { accountType: "email" | "phone"; email?: string; areaCode?: string; phone?: string };

/** A hash to verify against when the account does not exist, so both paths take as long. */
let decoyHash: Promise<string> | undefined;

/**
 * Members over the store: creating them (the one way, for every caller), finding them, their
 * sessions, devices and security settings. The API's handlers call it; the rules it applies
 * (code lifetimes, TOTP, device names) live in engine/core/members. Refusals are thrown as
 * `Refusal`s, worded at the HTTP edge.
 */
export class MemberService {
  readonly codes: VerificationCodes;
  /** Wrong transaction passwords per member: five in 15 minutes, then a wait (a withdrawal needs it). */
  private readonly tradePasswordFailures = new AttemptLimiter({ max: 5, windowMs: 15 * 60_000 });
  /** Refreshes of the last few seconds, answered again to the same refresh token (decision 019). */
  private readonly refreshes = new RefreshGrace();

  constructor(
    private readonly db: Kysely<Database>,
    settings: CodeSettings,
    /** Security changes are told to the member (decision 031). */
    private readonly notices?: NoticeService,
  ) {
    this.codes = new VerificationCodes(db, settings);
  }

  /** Creates a member (see `createMember`: the one way in). */
  create(member: NewMember, now: number): Promise<{ id: string; uid: string }> {
    return createMember(this.db, member, now);
  }

  /** The member of an e-mail address or of a phone number, if any. */
  findByAccount(account: { email?: string; areaCode?: string; phone?: string }): Promise<MemberRow | undefined> {
    return memberOfAccount(this.db, account);
  }

  /** The member id of a uid (operators name members by uid), or null. */
  async idOfUid(uid: string): Promise<string | null> {
    const row = await this.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirst();
    return row?.id ?? null;
  }

  async load(memberId: string): Promise<MemberRow> {
    return this.db.selectFrom("member").selectAll().where("id", "=", memberId).executeTakeFirstOrThrow();
  }

  async view(memberId: string, demo: boolean): Promise<MemberInfo> {
    return memberView(await this.load(memberId), demo);
  }

  /**
   * Registration (spec §5) once the request's code is checked: the phone must fit its area, the
   * account be free and the invite code (if any) known.
   */
  async register(
    input: AccountFields & { code: string; password: string; tradePassword?: string; inviteCode?: string },
    now: number,
    lang?: LanguageCode,
  ): Promise<{ uid: string }> {
    await this.refuseBadPhone(input);
    if (await this.findByAccount(input)) throw Refusal.of(ResultCode.CONFLICT, "errors.account_taken");
    let invitedBy: string | null = null;
    if (input.inviteCode) {
      const inviter = await this.db.selectFrom("member").select("id").where("invite_code", "=", input.inviteCode.toUpperCase()).executeTakeFirst();
      if (!inviter) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.invite_unknown");
      invitedBy = inviter.id;
    }
    await this.codes.consume({ destination: destinationOf(input), purpose: "register", code: input.code, now });
    const { uid } = await this.create({ account: accountOf(input), password: input.password, tradePassword: input.tradePassword, invitedBy, lang }, now);
    return { uid };
  }

  /** The member whose password this is, or null; an unknown account takes as long as a known one. */
  async checkPassword(account: AccountFields, password: string): Promise<MemberRow | null> {
    const member = await this.findByAccount(account);
    decoyHash ??= hash("decoy password for timing");
    const passwordOk = await verify(member?.password_hash ?? (await decoyHash), password);
    return member && passwordOk ? member : null;
  }

  /**
   * The id of the device cookie a login presents if it is this account's own and still valid
   * (decision 040), else null: the login then counts as a stranger's.
   */
  async trustedDevice(account: AccountFields, cookie: string, now: number): Promise<string | null> {
    const member = await this.findByAccount(account);
    return member ? deviceCookieOf(this.db, member.id, cookie, now) : null;
  }

  /**
   * Opens a device session after a good login (a new login from one device replaces its session),
   * with a new device cookie for the browser (replacing the one it presented, `replacingDevice`).
   * `lang`, the login's language, becomes the language of the member's mails (decision 030).
   */
  openSession(input: {
    memberId: string;
    deviceId: string;
    userAgent: string;
    ip: string;
    now: number;
    demoMemberId: string | null;
    lang?: LanguageCode;
    replacingDevice?: string | null;
  }): Promise<TokenGrant> {
    return this.db.transaction().execute(async (trx) => {
      // Read under a row lock: a freeze (which locks the row to update it) either comes first and
      // refuses this login, or waits and ends the session opened here with the others. Not a share
      // lock: the language below updates this row, and two logins each holding a share lock would
      // deadlock; two logins of one member now take turns.
      const member = await trx.selectFrom("member").select("frozen_at").where("id", "=", input.memberId).forNoKeyUpdate().executeTakeFirst();
      if (member?.frozen_at) throw Refusal.of(ResultCode.FORBIDDEN, "errors.account_frozen");
      if (input.lang) await rememberLanguage(trx, input.memberId, input.lang);
      const grant = await openSession(trx, input);
      // The public demo member gets none: its password is public, so every visitor would add a row
      // kept for 180 days, and there is no owner to protect from lockout (decision 040).
      if (input.memberId === input.demoMemberId) return grant;
      return { ...grant, device_cookie: await issueDeviceCookie(trx, input.memberId, input.now, input.replacingDevice ?? null) };
    });
  }

  /**
   * New tokens for a refresh token, or null if it is unknown, revoked or expired (`lang` as for
   * `openSession`). The same token used again within `REFRESH_GRACE_MS` gets the same new tokens.
   */
  refreshSession(refreshToken: string, now: number, demoMemberId: string | null, lang?: LanguageCode): Promise<TokenGrant | null> {
    return this.refreshes.once(refreshToken, now, () => this.db.transaction().execute((trx) => rotateSession(trx, refreshToken, now, demoMemberId, lang)));
  }

  endSession(sessionId: string, now: number): Promise<void> {
    return revokeSessions(this.db, { sessionId }, now);
  }

  /** The member and session of an access token, or null. */
  authenticate(token: string, now: number): Promise<AuthedMember | null> {
    return authenticate(this.db, token, now);
  }

  /**
   * A page of the member's logins. The demo login is shared by every visitor: each sees only
   * their own login, without addresses.
   */
  async loginLog({ memberId, sessionId }: AuthedMember, page: { pageNo: number; pageSize: number }, demo: boolean) {
    const { pageNo, pageSize } = page;
    // No entry carries an id: the log's key is a counter over every member's logins, and a
    // session's would tell a visitor of the demo member the others' (migration 032).
    if (demo) {
      const own = await this.db.selectFrom("device_session").select(["name", "user_agent", "created_at"]).where("id", "=", sessionId).executeTakeFirst();
      const records =
        own && pageNo === 1 ? [{ ip: "", deviceName: own.name, userAgent: own.user_agent, createdAt: new Date(own.created_at).toISOString() }] : [];
      return { records, total: own ? 1 : 0, current: pageNo, size: pageSize };
    }
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom("login_log")
        .select(["ip", "device_name", "user_agent", "created_at"])
        .where("member_id", "=", memberId)
        .orderBy("id", "desc")
        .limit(pageSize)
        .offset((pageNo - 1) * pageSize)
        .execute(),
      this.db
        .selectFrom("login_log")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("member_id", "=", memberId)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      records: rows.map((r) => ({ ip: r.ip, deviceName: r.device_name, userAgent: r.user_agent, createdAt: new Date(r.created_at).toISOString() })),
      total: count.n,
      current: pageNo,
      size: pageSize,
    };
  }

  /**
   * The member's live sessions, latest first, each by its random public id (migration 032). The
   * shared demo member: a visitor sees only their own, without its address.
   */
  async devices({ memberId, sessionId }: AuthedMember, demo: boolean, now: number) {
    const rows = await this.db
      .selectFrom("device_session")
      .select(["id", "public_id", "name", "ip", "user_agent", "created_at", "last_seen_at"])
      .where("member_id", "=", memberId)
      .where("revoked_at", "is", null)
      .where("refresh_expires_at", ">", new Date(now))
      .$if(demo, (q) => q.where("id", "=", sessionId))
      .orderBy("last_seen_at", "desc")
      .execute();
    return rows.map((r) => ({
      id: r.public_id,
      name: r.name,
      ip: demo ? "" : r.ip,
      userAgent: r.user_agent,
      createdAt: new Date(r.created_at).toISOString(),
      lastSeenAt: new Date(r.last_seen_at).toISOString(),
      current: r.id === sessionId,
    }));
  }

  /**
   * Ends one of the member's own sessions, named by its public id (another member's answers like a
   * missing one). A visitor of the shared demo member owns only their own session (`demo`).
   */
  async revokeDevice(caller: AuthedMember, demo: boolean, publicId: string, now: number): Promise<void> {
    const result = await this.ownSession(caller, demo, publicId)
      .set({ revoked_at: new Date(now) })
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw Refusal.of(ResultCode.NOT_FOUND, "errors.device_unknown");
  }

  /** Renames one of the member's own sessions, named by its public id; as `revokeDevice`, the demo member's visitors only their own. */
  async renameDevice(caller: AuthedMember, demo: boolean, publicId: string, name: string): Promise<void> {
    const result = await this.ownSession(caller, demo, publicId).set({ name }).executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw Refusal.of(ResultCode.NOT_FOUND, "errors.device_unknown");
  }

  /**
   * The update of one live session of the caller's: the member's, and for the shared demo member
   * the caller's own one only, as every visitor logs in as that one member and would otherwise
   * rename the others' sessions (they see the name on their devices page).
   */
  private ownSession({ memberId, sessionId }: AuthedMember, demo: boolean, publicId: string) {
    return this.db
      .updateTable("device_session")
      .where("public_id", "=", publicId)
      .where("member_id", "=", memberId)
      .where("revoked_at", "is", null)
      .$if(demo, (q) => q.where("id", "=", sessionId));
  }

  /** A new password, given the old one. Every session ends, this one included: old tokens stop working at once. */
  async changePassword(memberId: string, oldPassword: string, newPassword: string, now: number): Promise<void> {
    const member = await this.load(memberId);
    if (!(await verify(member.password_hash, oldPassword))) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.old_password_wrong");
    await this.replacePassword(memberId, await hash(newPassword), now);
  }

  /**
   * A forgotten password (issue 8), with a `reset` code. An unknown account has no code, so it is
   * refused like a wrong code: nothing is revealed. Answers the member's id.
   */
  async resetPassword(input: AccountFields & { code: string; password: string }, now: number, demoMemberId: string | null): Promise<string> {
    const member = await this.findByAccount(input);
    // The shared demo login is public: resetting it would lock out the next visitor (decision 013).
    if (member && demoMemberId !== null && member.id === demoMemberId) throw Refusal.of(ResultCode.FORBIDDEN, "errors.demo_locked");
    await this.codes.consume({ destination: destinationOf(input), purpose: "reset", code: input.code, now });
    if (!member) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.code_expired");
    // A frozen account stays shut (decision 043): a reset would hand it to whoever holds the mailbox.
    if (member.frozen_at) throw Refusal.of(ResultCode.FORBIDDEN, "errors.account_frozen");
    await this.replacePassword(member.id, await hash(input.password), now);
    return member.id;
  }

  private async replacePassword(memberId: string, passwordHash: string, now: number): Promise<void> {
    await this.changeAndTell(memberId, "security_login_password", now, async (trx) => {
      await trx
        .updateTable("member")
        .set({ password_hash: passwordHash, password_changed_at: new Date(now) })
        .where("id", "=", memberId)
        .execute();
      await revokeSessions(trx, { memberId }, now);
      // No browser stays trusted from before the new password: a stolen device cookie ends here (decision 040).
      await revokeDeviceCookies(trx, memberId);
    });
    this.notices?.sessionsEnded(memberId, now);
  }

  /**
   * A security change and the member's notification of it, in one transaction (decision 031):
   * both are written or neither; the member's open pages hear of it once it committed.
   */
  private async changeAndTell(memberId: string, type: NoticeType, now: number, change: (trx: Transaction<Database>) => Promise<unknown>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await change(trx);
      await this.notices?.record(trx, { memberId, type }, now);
    });
    this.notices?.told(memberId);
  }

  /** Sets the trade password, confirmed by a security code. */
  async setTradePassword(memberId: string, code: string, tradePassword: string, now: number): Promise<void> {
    await this.consumeSecurityCode(await this.load(memberId), code, now);
    const tradePasswordHash = await hash(tradePassword);
    await this.changeAndTell(memberId, "security_trade_password", now, (trx) =>
      trx.updateTable("member").set({ trade_password_hash: tradePasswordHash }).where("id", "=", memberId).execute(),
    );
  }

  /** Sets the anti-phishing code shown in the engine's e-mails, confirmed by a security code. */
  async setAntiCode(memberId: string, code: string, antiCode: string, now: number): Promise<void> {
    await this.consumeSecurityCode(await this.load(memberId), code, now);
    await this.changeAndTell(memberId, "security_anti_code", now, (trx) =>
      trx.updateTable("member").set({ anti_code: antiCode }).where("id", "=", memberId).execute(),
    );
  }

  /** Binds the e-mail or phone the member has not got yet, confirmed by a `bind` code sent to it. */
  async bindAccount(memberId: string, input: AccountFields & { code: string }, now: number): Promise<MemberRow> {
    const member = await this.load(memberId);
    if (input.accountType === "email" ? member.email : member.phone) throw Refusal.of(ResultCode.CONFLICT, "errors.already_bound");
    await this.refuseBadPhone(input);
    if (await this.findByAccount(input)) throw Refusal.of(ResultCode.CONFLICT, "errors.account_taken");
    await this.codes.consume({ destination: destinationOf(input), purpose: "bind", code: input.code, now });
    const account = accountOf(input);
    try {
      await this.changeAndTell(memberId, "email" in account ? "security_email_bound" : "security_phone_bound", now, (trx) =>
        trx
          .updateTable("member")
          .set("email" in account ? { email: account.email } : { area_code: account.areaCode, phone: account.phone })
          .where("id", "=", memberId)
          .execute(),
      );
    } catch {
      // A concurrent registration took it between the check and the update (unique index).
      throw Refusal.of(ResultCode.CONFLICT, "errors.account_taken");
    }
    return this.load(memberId);
  }

  /**
   * The member asks for priority support (spec §4 "Support button"; decision 032), once. While the
   * site's `supportEnabled` is on, the request is recorded (`supported` 1, `support_requested_at`),
   * the support desk is mailed at the site's `supportEmail` with who asks and how to reach them,
   * and the member is told in a notification: all in one transaction. Pressing again changes
   * nothing and mails no one (only a member not yet supported is updated).
   */
  async requestSupport(memberId: string, now: number): Promise<void> {
    const site = await readSiteConfig(this.db);
    if (!site.supportEnabled) throw Refusal.of(ResultCode.FORBIDDEN, "errors.support_disabled");
    const asked = await this.db.transaction().execute(async (trx) => {
      const member = await trx
        .updateTable("member")
        .set({ supported: 1, support_requested_at: new Date(now) })
        .where("id", "=", memberId)
        .where("supported", "=", 0)
        .returning(["uid", "email", "area_code", "phone", "lang"])
        .executeTakeFirst();
      if (!member) return false;
      const deskLang = site.defaultLanguage;
      const contact = [member.email, member.phone ? `+${member.area_code ?? ""} ${member.phone}` : null].filter(Boolean).join(", ");
      const text = (key: Parameters<typeof engineText>[1], params: Record<string, string>) => engineText(deskLang, key, params);
      await trx
        .insertInto("outbox_message")
        .values({
          channel: "email",
          destination: site.supportEmail,
          subject: text("mail.support_request_subject", { site: site.siteName, uid: member.uid }),
          body: [
            text("mail.support_request_body", { uid: member.uid }),
            text("mail.support_request_contact", { contact }),
            text("mail.support_request_language", { language: member.lang ?? FALLBACK_LANGUAGE }),
            text("mail.support_request_time", { time: new Date(now).toISOString().slice(0, 16).replace("T", " ") }),
          ].join("\n"),
          created_at: new Date(now),
          // One mail per request: a member an operator lets ask again is mailed again.
          dedupe_key: `support:${memberId}:${now}`,
        })
        .onConflict((oc) => oc.column("dedupe_key").doNothing())
        .execute();
      await this.notices?.record(trx, { memberId, type: "support_requested" }, now);
      return true;
    });
    if (asked) this.notices?.told(memberId);
  }

  /**
   * The Google Authenticator secret waiting to be bound (made on first ask): the same one is
   * shown until it is bound, so a page reload does not invalidate a scan.
   */
  async pendingGoogleSecret(memberId: string, siteName: string): Promise<{ secret: string; otpauthUri: string }> {
    const member = await this.load(memberId);
    if (member.google_secret) throw Refusal.of(ResultCode.CONFLICT, "errors.google_bound");
    let secret = member.google_pending_secret;
    if (!secret) {
      secret = base32Encode(randomBytes(20));
      await this.db.updateTable("member").set({ google_pending_secret: secret }).where("id", "=", memberId).execute();
    }
    return { secret, otpauthUri: otpauthUri(siteName, member.email ?? `+${member.area_code} ${member.phone}`, secret) };
  }

  /** Binds the pending secret, or resets the bound one: a current TOTP code of it and a security code. */
  async bindOrResetGoogle(memberId: string, input: { binding: boolean; totp: string; code: string }, now: number): Promise<{ googleBound: boolean }> {
    const member = await this.load(memberId);
    const { binding } = input;
    const secret = binding ? member.google_pending_secret : member.google_secret;
    if (!secret || (binding && member.google_secret)) throw Refusal.of(ResultCode.CONFLICT, binding ? "errors.google_bound" : "errors.google_not_bound");
    if (!verifyTotp(secret, input.totp, now)) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.google_code_wrong");
    await this.consumeSecurityCode(member, input.code, now);
    await this.changeAndTell(memberId, binding ? "security_google_bound" : "security_google_reset", now, (trx) =>
      trx
        .updateTable("member")
        .set(binding ? { google_secret: secret, google_pending_secret: null } : { google_secret: null })
        .where("id", "=", memberId)
        .execute(),
    );
    return { googleBound: binding };
  }

  /**
   * What a withdrawal needs of the member (spec §5): the transaction password, a `withdraw` code
   * sent to their own address for this very withdrawal (coin, network, amount, address), and the
   * Google code when 2FA is bound. The code is consumed only when the password (and Google code)
   * are right, so a typo in those does not burn it.
   */
  async authorizeWithdrawal(
    memberId: string,
    input: WithdrawalDetails & { tradePassword: string; code: string; googleCode?: string },
    now: number,
  ): Promise<MemberRow> {
    const member = await this.load(memberId);
    if (!member.trade_password_hash) throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.trade_password_not_set");
    const key = `trade-password:${memberId}`;
    const verdict = this.tradePasswordFailures.check(key, now);
    if (!verdict.allowed) throw Refusal.of(ResultCode.TOO_MANY_REQUESTS, "errors.too_many_attempts", { minutes: Math.ceil(verdict.retryAfterMs / 60_000) });
    if (!(await verify(member.trade_password_hash, input.tradePassword))) {
      this.tradePasswordFailures.record(key, now);
      throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.trade_password_wrong");
    }
    const { coin, network, amount, address, memo } = input;
    await this.confirmCodes(member, input, now, { coin, network, amount, address, ...(memo !== undefined ? { memo } : {}) });
    return member;
  }

  /**
   * A security change confirmed by the member (the address book's whitelist mode): the Google
   * code when 2FA is bound, then a security code sent to their own address, consumed last.
   */
  async confirmSecurityChange(memberId: string, input: { code: string; googleCode?: string }, now: number): Promise<void> {
    await this.confirmCodes(await this.load(memberId), input, now);
  }

  /** The Google code when bound, then the code: a security code, or the `withdraw` code of `withdrawal`. */
  private async confirmCodes(member: MemberRow, input: { code: string; googleCode?: string }, now: number, withdrawal?: WithdrawalDetails): Promise<void> {
    if (member.google_secret && !verifyTotp(member.google_secret, input.googleCode ?? "", now))
      throw Refusal.of(ResultCode.BAD_REQUEST, "errors.google_code_wrong");
    if (withdrawal) await this.codes.consume({ destination: securityDestination(member), purpose: "withdraw", code: input.code, now, withdrawal });
    else await this.consumeSecurityCode(member, input.code, now);
  }

  private consumeSecurityCode(member: MemberRow, code: string, now: number): Promise<void> {
    return this.codes.consume({ destination: securityDestination(member), purpose: "security", code, now });
  }

  /** Spec §5: a phone number must fit its area code. */
  async refuseBadPhone(input: AccountFields): Promise<void> {
    if (input.accountType === "phone" && !(await phoneFitsArea(this.db, input.areaCode!, input.phone!))) {
      throw Refusal.of(ResultCode.BAD_REQUEST, "errors.phone_invalid");
    }
  }
}

/** Where codes for this account go, e.g. `alice@example.com` or `+49 15112345678`. */
export function destinationOf(account: AccountFields): string {
  return account.accountType === "email" ? account.email! : `+${account.areaCode} ${account.phone}`;
}

/** Security codes go to the member's e-mail, else to the phone. */
export function securityDestination(member: { email: string | null; area_code: string | null; phone: string | null }): string {
  return member.email ?? `+${member.area_code} ${member.phone}`;
}
