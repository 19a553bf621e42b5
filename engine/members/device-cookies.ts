import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { DEVICE_COOKIE_DAYS } from "../../protocol/member";
import { digest } from "../core/members/secrets";
import type { Database } from "../store/schema";

type Db = Kysely<Database> | Transaction<Database>;

const DAY_MS = 24 * 60 * 60_000;

/**
 * The device cookie a login presents, if it is one this engine issued to that member and it has
 * not expired (decision 040): answers its id, the key its failures are counted under. Anything
 * else (forged, unknown, revoked, expired, another member's) is null: the login counts as a
 * stranger's.
 */
export async function deviceCookieOf(db: Db, memberId: string, cookie: string, now: number): Promise<string | null> {
  const row = await db
    .selectFrom("login_device_cookie")
    .select("id")
    .where("token_hash", "=", digest(cookie))
    .where("member_id", "=", memberId)
    .where("expires_at", ">", new Date(now))
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Issues a device cookie after a good login and answers it (only its digest is stored). The
 * cookie the login presented, if any, is replaced, as are the member's expired ones: a cookie
 * lives from one login to the next, so a copy taken from the browser does not outlive its use.
 */
export async function issueDeviceCookie(db: Db, memberId: string, now: number, replacing: string | null): Promise<string> {
  const cookie = randomBytes(32).toString("base64url");
  await db
    .deleteFrom("login_device_cookie")
    .where("member_id", "=", memberId)
    .where((eb) => (replacing === null ? eb("expires_at", "<=", new Date(now)) : eb.or([eb("id", "=", replacing), eb("expires_at", "<=", new Date(now))])))
    .execute();
  await db
    .insertInto("login_device_cookie")
    .values({ member_id: memberId, token_hash: digest(cookie), created_at: new Date(now), expires_at: new Date(now + DEVICE_COOKIE_DAYS * DAY_MS) })
    .execute();
  return cookie;
}

/** Revokes every device cookie of a member (a new password: no browser is trusted from before it). */
export async function revokeDeviceCookies(db: Db, memberId: string): Promise<void> {
  await db.deleteFrom("login_device_cookie").where("member_id", "=", memberId).execute();
}
