import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { TokenGrant } from "../../../protocol/member";
import { deviceNameFrom } from "../../core/members/device-name";
import { MEMBER_RULES } from "../../core/members/rules";
import { digest } from "../../core/members/secrets";
import type { Database } from "../../store/schema";
import { memberView } from "./member-view";
import { isDemoMember } from "./require-member";

type Db = Kysely<Database> | Transaction<Database>;

const newToken = () => randomBytes(32).toString("base64url");

/**
 * Opens a device session for a member and hands out its tokens. A new login from the same device
 * replaces that device's earlier session. Tokens are stored only as digests.
 */
export async function openSession(
  db: Db,
  input: { memberId: string; deviceId: string; userAgent: string; ip: string; now: number; demoMemberId: string | null },
): Promise<TokenGrant> {
  const access = newToken();
  const refresh = newToken();
  const now = new Date(input.now);
  await db
    .updateTable("device_session")
    .set({ revoked_at: now })
    .where("member_id", "=", input.memberId)
    .where("device_id", "=", input.deviceId)
    .where("revoked_at", "is", null)
    .execute();
  const name = deviceNameFrom(input.userAgent);
  await db
    .insertInto("device_session")
    .values({
      member_id: input.memberId,
      device_id: input.deviceId,
      name,
      user_agent: input.userAgent.slice(0, 400),
      ip: input.ip.slice(0, 64),
      access_token_hash: digest(access),
      access_expires_at: new Date(input.now + MEMBER_RULES.accessTokenSeconds * 1000),
      refresh_token_hash: digest(refresh),
      refresh_expires_at: new Date(input.now + MEMBER_RULES.refreshTokenSeconds * 1000),
      created_at: now,
      last_seen_at: now,
    })
    .execute();
  await db
    .insertInto("login_log")
    .values({ member_id: input.memberId, ip: input.ip.slice(0, 64), user_agent: input.userAgent.slice(0, 400), device_name: name, created_at: now })
    .execute();
  return grant(db, input.memberId, access, refresh, input.demoMemberId);
}

/** Rotates a session's tokens (refresh grant): the old refresh token stops working. */
export async function rotateSession(db: Db, refreshToken: string, now: number, demoMemberId: string | null): Promise<TokenGrant | null> {
  const session = await db
    .selectFrom("device_session")
    .select(["id", "member_id"])
    .where("refresh_token_hash", "=", digest(refreshToken))
    .where("revoked_at", "is", null)
    .where("refresh_expires_at", ">", new Date(now))
    .executeTakeFirst();
  if (!session) return null;
  const access = newToken();
  const refresh = newToken();
  await db
    .updateTable("device_session")
    .set({
      access_token_hash: digest(access),
      access_expires_at: new Date(now + MEMBER_RULES.accessTokenSeconds * 1000),
      refresh_token_hash: digest(refresh),
      refresh_expires_at: new Date(now + MEMBER_RULES.refreshTokenSeconds * 1000),
      last_seen_at: new Date(now),
    })
    .where("id", "=", session.id)
    .execute();
  return grant(db, session.member_id, access, refresh, demoMemberId);
}

async function grant(db: Db, memberId: string, access: string, refresh: string, demoMemberId: string | null): Promise<TokenGrant> {
  const member = await db.selectFrom("member").selectAll().where("id", "=", memberId).executeTakeFirstOrThrow();
  return {
    access_token: access,
    refresh_token: refresh,
    token_type: "bearer",
    expires_in: MEMBER_RULES.accessTokenSeconds,
    user: memberView(member, isDemoMember({ demoMemberId }, memberId)),
  };
}

/** Revokes sessions: one, or every session of a member (password change). */
export async function revokeSessions(db: Db, where: { sessionId: string } | { memberId: string }, now: number): Promise<void> {
  let query = db.updateTable("device_session").set({ revoked_at: new Date(now) }).where("revoked_at", "is", null);
  query = "sessionId" in where ? query.where("id", "=", where.sessionId) : query.where("member_id", "=", where.memberId);
  await query.execute();
}
