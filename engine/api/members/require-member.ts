import type { FastifyRequest } from "fastify";
import { sql, type Kysely } from "kysely";
import { HEADERS } from "../../../protocol/endpoint";
import { ResultCode } from "../../../protocol/result-codes";
import { digest } from "../../core/members/secrets";
import { BatchedLookup } from "../../store/batched-lookup";
import type { Database } from "../../store/schema";
import { ApiError } from "../api-error";
import { engineText, requestLanguage } from "../engine-texts";

export interface AuthedMember {
  memberId: string;
  sessionId: string;
}

/** The bearer token of a request (spec §7: `blade-auth: bearer <token>`), or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers[HEADERS.token];
  const value = Array.isArray(header) ? header[0] : header;
  const match = value?.match(/^bearer\s+([A-Za-z0-9_-]{20,200})$/i);
  return match?.[1] ?? null;
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
 * The member behind the request's token: the token's session must exist, be unrevoked and
 * unexpired. Anything else answers 401, which the web tier turns into a logout (spec §4).
 */
export async function requireMember(db: Kysely<Database>, request: FastifyRequest, now: number): Promise<AuthedMember> {
  const token = bearerToken(request);
  const unauthorized = () => new ApiError(ResultCode.UNAUTHORIZED, engineText(requestLanguage(request.headers), "errors.unauthorized"));
  if (!token) throw unauthorized();
  const session = await sessionLookup(db).get(digest(token));
  if (!session || new Date(session.access_expires_at).getTime() <= now) throw unauthorized();
  if (now - new Date(session.last_seen_at).getTime() > 60_000 && now - (touched.get(session.id) ?? 0) > 60_000) {
    if (touched.size > 100_000) touched.clear();
    touched.set(session.id, now);
    await db.updateTable("device_session").set({ last_seen_at: new Date(now) }).where("id", "=", session.id).execute();
  }
  return { memberId: session.member_id, sessionId: session.id };
}

/**
 * Refuses a change of security settings (password, codes, 2FA, bindings, devices, KYC) by the demo
 * member: its login is public (docs/decisions/013-demo-member.md), so one visitor must not lock out
 * the next.
 */
export function refuseDemoMember(services: { demoMemberId: string | null }, memberId: string, request: FastifyRequest): void {
  if (isDemoMember(services, memberId)) {
    throw new ApiError(ResultCode.FORBIDDEN, engineText(requestLanguage(request.headers), "errors.demo_locked"));
  }
}

/** Whether this is the shared demo member of a demo install (decision 013). */
export function isDemoMember(services: { demoMemberId: string | null }, memberId: string): boolean {
  return services.demoMemberId !== null && memberId === services.demoMemberId;
}
