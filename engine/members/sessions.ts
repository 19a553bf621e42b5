import { randomBytes } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import type { LanguageCode } from "../../protocol/languages";
import type { TokenGrant } from "../../protocol/member";
import { deviceNameFrom } from "../core/members/device-name";
import { MEMBER_RULES } from "../core/members/rules";
import { digest } from "../core/members/secrets";
import { readSiteConfig } from "../configuration/site-settings";
import { BatchedLookup } from "../store/batched-lookup";
import type { Database } from "../store/schema";
import { memberView } from "./member-view";

type Db = Kysely<Database> | Transaction<Database>;

const newToken = () => randomBytes(32).toString("base64url");

/** A login on one device: whose, which device, and where from. */
export interface DeviceLogin {
  memberId: string;
  deviceId: string;
  userAgent: string;
  ip: string;
}

/** The tokens of a new session (the store keeps only their digests). */
export interface SessionTokens {
  access: string;
  refresh: string;
}

/**
 * Opens a device session for a member and hands out its tokens. A new login from the same device
 * replaces that device's earlier session. Tokens are stored only as digests.
 */
export async function openSession(db: Db, input: DeviceLogin & { now: number; demoMemberId: string | null }): Promise<TokenGrant> {
  const lifetimes = await tokenLifetimes(db);
  const [tokens] = await openSessions(db, [input], input.now, lifetimes);
  return grant(db, input.memberId, tokens!.access, tokens!.refresh, input.demoMemberId, lifetimes);
}

/** How long a session's tokens live, in seconds. */
export interface TokenLifetimes {
  access: number;
  refresh: number;
}

/**
 * The access token lives the site's token time (`tokenTime`, spec §9: 604800 s; decision 032), read
 * at each login and refresh so an operator's change holds for the next token issued. The refresh
 * token lives 30 days, and never less than the access token it renews.
 */
export async function tokenLifetimes(db: Db): Promise<TokenLifetimes> {
  const access = (await readSiteConfig(db)).tokenTime;
  return { access, refresh: Math.max(MEMBER_RULES.refreshTokenSeconds, access) };
}

/**
 * Opens device sessions for many logins with one statement each (`openSession` is one of them;
 * the bench opens its members' sessions in batches): each device's earlier session is revoked,
 * the session row written with its tokens' digests and expiries, and the login logged. The
 * tokens are answered in the order of the logins.
 */
export async function openSessions(db: Db, logins: readonly DeviceLogin[], now: number, lifetimes?: TokenLifetimes): Promise<SessionTokens[]> {
  if (logins.length === 0) return [];
  const { access, refresh } = lifetimes ?? (await tokenLifetimes(db));
  const tokens = logins.map((): SessionTokens => ({ access: newToken(), refresh: newToken() }));
  const at = new Date(now);
  await db
    .updateTable("device_session")
    .set({ revoked_at: at })
    .where((eb) =>
      eb(
        eb.refTuple("member_id", "device_id"),
        "in",
        logins.map((login) => eb.tuple(login.memberId, login.deviceId)),
      ),
    )
    .where("revoked_at", "is", null)
    .execute();
  const names = logins.map((login) => deviceNameFrom(login.userAgent));
  await db
    .insertInto("device_session")
    .values(
      logins.map((login, i) => ({
        member_id: login.memberId,
        device_id: login.deviceId,
        name: names[i]!,
        user_agent: login.userAgent.slice(0, 400),
        ip: login.ip.slice(0, 64),
        access_token_hash: digest(tokens[i]!.access),
        access_expires_at: new Date(now + access * 1000),
        refresh_token_hash: digest(tokens[i]!.refresh),
        refresh_expires_at: new Date(now + refresh * 1000),
        created_at: at,
        last_seen_at: at,
      })),
    )
    .execute();
  await db
    .insertInto("login_log")
    .values(
      logins.map((login, i) => ({
        member_id: login.memberId,
        ip: login.ip.slice(0, 64),
        user_agent: login.userAgent.slice(0, 400),
        device_name: names[i]!,
        created_at: at,
      })),
    )
    .execute();
  return tokens;
}

/** Rotates a session's tokens (refresh grant): the old refresh token stops working. `lang`: see `rememberLanguage`. */
export async function rotateSession(db: Db, refreshToken: string, now: number, demoMemberId: string | null, lang?: LanguageCode): Promise<TokenGrant | null> {
  const session = await db
    .selectFrom("device_session")
    .select(["id", "member_id"])
    .where("refresh_token_hash", "=", digest(refreshToken))
    .where("revoked_at", "is", null)
    .where("refresh_expires_at", ">", new Date(now))
    .executeTakeFirst();
  if (!session) return null;
  const lifetimes = await tokenLifetimes(db);
  const access = newToken();
  const refresh = newToken();
  await db
    .updateTable("device_session")
    .set({
      access_token_hash: digest(access),
      access_expires_at: new Date(now + lifetimes.access * 1000),
      refresh_token_hash: digest(refresh),
      refresh_expires_at: new Date(now + lifetimes.refresh * 1000),
      last_seen_at: new Date(now),
    })
    .where("id", "=", session.id)
    .execute();
  if (lang) await rememberLanguage(db, session.member_id, lang);
  return grant(db, session.member_id, access, refresh, demoMemberId, lifetimes);
}

async function grant(db: Db, memberId: string, access: string, refresh: string, demoMemberId: string | null, lifetimes: TokenLifetimes): Promise<TokenGrant> {
  const member = await db.selectFrom("member").selectAll().where("id", "=", memberId).executeTakeFirstOrThrow();
  return {
    access_token: access,
    refresh_token: refresh,
    token_type: "bearer",
    expires_in: lifetimes.access,
    user: memberView(member, demoMemberId !== null && memberId === demoMemberId),
  };
}

/**
 * Keeps the language a member logs in with (or refreshes their tokens in: the web tier sends its
 * language with every call) as the language of their mails, which no request of theirs asks for:
 * a deposit credited, a withdrawal approved (decision 030). Written only when it changed.
 */
export async function rememberLanguage(db: Db, memberId: string, lang: LanguageCode): Promise<void> {
  await db
    .updateTable("member")
    .set({ lang })
    .where("id", "=", memberId)
    .where((eb) => eb.or([eb("lang", "is", null), eb("lang", "!=", lang)]))
    .execute();
}

/** Revokes sessions: one, or every session of a member (password change). */
export async function revokeSessions(db: Db, where: { sessionId: string } | { memberId: string }, now: number): Promise<void> {
  let query = db
    .updateTable("device_session")
    .set({ revoked_at: new Date(now) })
    .where("revoked_at", "is", null);
  query = "sessionId" in where ? query.where("id", "=", where.sessionId) : query.where("member_id", "=", where.memberId);
  await query.execute();
}

/** The member and session a valid access token stands for. */
export interface AuthedMember {
  memberId: string;
  sessionId: string;
}

interface LiveSession {
  id: string;
  member_id: string;
  last_seen_at: Date;
  access_expires_at: Date;
}

/**
 * Unrevoked sessions by access-token digest, looked up for all the requests of one event-loop
 * turn with one query (decision 012). Nothing is cached: a revoked token fails on its next request.
 */
const sessionLookups = new WeakMap<Kysely<Database>, BatchedLookup<LiveSession>>();
function sessionLookup(db: Kysely<Database>): BatchedLookup<LiveSession> {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = new BatchedLookup<LiveSession>(async (digests) => {
      const rows = await sql<LiveSession & { access_token_hash: string }>`select s.id, s.member_id, s.last_seen_at, s.access_expires_at, s.access_token_hash
        from json_array_elements_text(${JSON.stringify(digests)}::json) as d(h)
        cross join lateral (select * from device_session where access_token_hash = d.h and revoked_at is null) s`.execute(db);
      return new Map(rows.rows.map((r) => [r.access_token_hash, r]));
    });
    sessionLookups.set(db, lookup);
  }
  return lookup;
}

/** Sessions whose last-seen time this process wrote lately (concurrent requests write it once). */
const touched = new Map<string, number>();

/**
 * The member behind an access token: its session must exist, be unrevoked and unexpired (else
 * null). The session's last-seen time is written at most once a minute.
 */
export async function authenticate(db: Kysely<Database>, token: string, now: number): Promise<AuthedMember | null> {
  const session = await sessionLookup(db).get(digest(token));
  if (!session || new Date(session.access_expires_at).getTime() <= now) return null;
  if (now - new Date(session.last_seen_at).getTime() > 60_000 && now - (touched.get(session.id) ?? 0) > 60_000) {
    if (touched.size > 100_000) touched.clear();
    touched.set(session.id, now);
    await db
      .updateTable("device_session")
      .set({ last_seen_at: new Date(now) })
      .where("id", "=", session.id)
      .execute();
  }
  return { memberId: session.member_id, sessionId: session.id };
}
