import type { Session } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import type { MemberInfo, TokenGrant } from "#protocol/member";
import { commitSession, getSession } from "../platform/session.server";

/**
 * The member's login lives in the server-side session cookie (httpOnly): the tokens never reach
 * browser JavaScript. Reading it (and refreshing the token) is the request's engine client's job:
 * `engine/member-session.server.ts`.
 */
export interface StoredAuth {
  accessToken: string;
  refreshToken: string;
  /** When the access token was issued (ms since epoch). */
  issuedAt: number;
  /**
   * When the engine said the access token expires (ms since epoch: issued + `expires_in`, the
   * site's token time; decision 032). Absent in cookies written before it was kept.
   */
  expiresAt?: number;
  member: Pick<MemberInfo, "id" | "uid" | "email" | "phone" | "areaCode" | "is_merchant" | "avatar">;
}

export const AUTH_KEY = "auth";

export function storedAuth(session: Session): StoredAuth | null {
  const value = session.get(AUTH_KEY) as StoredAuth | undefined;
  return value && typeof value.accessToken === "string" ? value : null;
}

export function authFromGrant(grant: TokenGrant, now = Date.now()): StoredAuth {
  const { id, uid, email, phone, areaCode, is_merchant, avatar } = grant.user;
  return {
    accessToken: grant.access_token,
    refreshToken: grant.refresh_token,
    issuedAt: now,
    expiresAt: now + grant.expires_in * 1000,
    member: { id, uid, email, phone, areaCode, is_merchant, avatar },
  };
}

/** A stable id for this browser's device session (kept in the session cookie). */
export function deviceIdOf(session: Session): string {
  let id = session.get("deviceId") as string | undefined;
  if (!id) {
    id = randomBytes(12).toString("base64url");
    session.set("deviceId", id);
  }
  return id;
}

/** Forgets the login (the engine session is revoked by the caller when it still exists). */
export async function logOutHeaders(request: Request): Promise<Headers> {
  const session = await getSession(request);
  session.unset(AUTH_KEY);
  const headers = new Headers();
  headers.append("set-cookie", await commitSession(request, session));
  return headers;
}

/** The browser's address and user agent, forwarded so the engine's login log and limits see them. */
export function clientOf(request: Request): { ip: string; userAgent: string } {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return { ip: forwarded || "", userAgent: request.headers.get("user-agent") ?? "" };
}
