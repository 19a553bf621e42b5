import { redirect, type Session } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import type { Endpoint } from "#protocol/endpoint";
import { endpoints } from "#protocol/endpoints";
import type { MemberInfo, TokenGrant } from "#protocol/member";
import type * as z from "zod";
import { callEndpoint, EngineRefusal, type CallInput } from "./api.server";
import { detectLanguage } from "./i18n.server";
import { commitSession, getSession, sessionStorage } from "./session.server";
import { loadSite } from "./site.server";
import { toastHeader } from "./toast.server";

/**
 * The member's login lives in the server-side session cookie (httpOnly): the tokens never reach
 * browser JavaScript. The access token is refreshed once its age reaches the token time (spec §4),
 * one refresh at a time per session; a failed refresh only releases the lock.
 */
export interface StoredAuth {
  accessToken: string;
  refreshToken: string;
  /** When the access token was issued (ms since epoch). */
  issuedAt: number;
  member: Pick<MemberInfo, "id" | "uid" | "email" | "phone" | "areaCode" | "is_merchant" | "avatar">;
}

export interface MemberContext {
  auth: StoredAuth;
  /** Set-Cookie headers to send when the tokens were refreshed during this request. */
  headers: Headers;
}

const AUTH_KEY = "auth";
/** Spec §4 checks every 10 s; refreshing that much before expiry keeps a token from lapsing between checks. */
const REFRESH_MARGIN_MS = 10_000;

const inFlight = new Map<string, Promise<TokenGrant | null>>();

export function storedAuth(session: Session): StoredAuth | null {
  const value = session.get(AUTH_KEY) as StoredAuth | undefined;
  return value && typeof value.accessToken === "string" ? value : null;
}

export function authFromGrant(grant: TokenGrant, now = Date.now()): StoredAuth {
  const { id, uid, email, phone, areaCode, is_merchant, avatar } = grant.user;
  return { accessToken: grant.access_token, refreshToken: grant.refresh_token, issuedAt: now, member: { id, uid, email, phone, areaCode, is_merchant, avatar } };
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

/** The logged-in member, or null; refreshes the token when it is due. */
export async function getMember(request: Request): Promise<MemberContext | null> {
  const session = await getSession(request);
  const auth = storedAuth(session);
  if (!auth) return null;
  const headers = new Headers();
  const tokenTimeMs = (await loadSite().then((s) => s.config.tokenTime).catch(() => 604_800)) * 1000;
  if (Date.now() - auth.issuedAt >= tokenTimeMs - REFRESH_MARGIN_MS) {
    const refreshed = await refreshOnce(auth.refreshToken, await detectLanguage(request));
    if (refreshed) {
      const next = authFromGrant(refreshed);
      session.set(AUTH_KEY, next);
      headers.append("set-cookie", await commitSession(request, session));
      return { auth: next, headers };
    }
  }
  return { auth, headers };
}

async function refreshOnce(refreshToken: string, lang: Parameters<typeof callEndpoint>[2]["lang"]): Promise<TokenGrant | null> {
  const pending = inFlight.get(refreshToken);
  if (pending) return pending;
  const attempt = callEndpoint(endpoints.token, { body: { grant_type: "refresh_token", refresh_token: refreshToken } }, { lang })
    .catch(() => null) // a refresh failure only releases the lock (spec §4)
    .finally(() => setTimeout(() => inFlight.delete(refreshToken), 5_000));
  inFlight.set(refreshToken, attempt);
  return attempt;
}

/** The logged-in member, or a redirect to the login page that comes back here afterwards. */
export async function requireMember(request: Request): Promise<MemberContext> {
  const member = await getMember(request);
  if (member) return member;
  const url = new URL(request.url);
  throw redirect(`/user/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/** Stores a fresh login in the session and returns the Set-Cookie header. */
export async function logIn(request: Request, grant: TokenGrant): Promise<string> {
  const session = await getSession(request);
  session.set(AUTH_KEY, authFromGrant(grant));
  return commitSession(request, session);
}

/** Forgets the login (the engine session is revoked by the caller when it still exists). */
export async function logOutHeaders(request: Request): Promise<Headers> {
  const session = await getSession(request);
  session.unset(AUTH_KEY);
  const headers = new Headers();
  headers.append("set-cookie", await sessionStorage.commitSession(session));
  return headers;
}

/**
 * Calls a member endpoint with the member's token. A 401 logs the member out and sends them home
 * (spec §4 "Session expiry"); other refusals are thrown as `EngineRefusal` for the page to show.
 */
export async function callAsMember<E extends Endpoint>(
  request: Request,
  member: MemberContext,
  endpoint: E,
  input: CallInput = {},
): Promise<z.output<E["response"]>> {
  try {
    return await callEndpoint(endpoint, input, { lang: await detectLanguage(request), token: member.auth.accessToken, client: clientOf(request) });
  } catch (error) {
    if (error instanceof EngineRefusal && error.outcome.kind === "logout") {
      const headers = await logOutHeaders(request);
      headers.append("set-cookie", await toastHeader(request, { type: "info", key: "auth.session_expired" }));
      throw redirect("/home/index", { headers });
    }
    throw error;
  }
}

/** The browser's address and user agent, forwarded so the engine's login log and limits see them. */
export function clientOf(request: Request): { ip: string; userAgent: string } {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return { ip: forwarded || "", userAgent: request.headers.get("user-agent") ?? "" };
}
