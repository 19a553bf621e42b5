import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import { HEADERS } from "../../../protocol/endpoint";
import { ResultCode } from "../../../protocol/result-codes";
import { digest } from "../../core/members/secrets";
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

/**
 * The member behind the request's token: the token's session must exist, be unrevoked and
 * unexpired. Anything else answers 401, which the web tier turns into a logout (spec §4).
 */
export async function requireMember(db: Kysely<Database>, request: FastifyRequest, now: number): Promise<AuthedMember> {
  const token = bearerToken(request);
  const unauthorized = () => new ApiError(ResultCode.UNAUTHORIZED, engineText(requestLanguage(request.headers), "errors.unauthorized"));
  if (!token) throw unauthorized();
  const session = await db
    .selectFrom("device_session")
    .select(["id", "member_id", "last_seen_at"])
    .where("access_token_hash", "=", digest(token))
    .where("revoked_at", "is", null)
    .where("access_expires_at", ">", new Date(now))
    .executeTakeFirst();
  if (!session) throw unauthorized();
  if (now - new Date(session.last_seen_at).getTime() > 60_000) {
    await db.updateTable("device_session").set({ last_seen_at: new Date(now) }).where("id", "=", session.id).execute();
  }
  return { memberId: session.member_id, sessionId: session.id };
}
