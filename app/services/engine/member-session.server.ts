import type { AppLoadContext } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import type { LanguageCode } from "#protocol/languages";
import type { TokenGrant } from "#protocol/member";
import { DEFAULT_SITE_CONFIG } from "#protocol/site-config";
import { callEndpoint } from "./api.server";
import { AUTH_KEY, authFromGrant, storedAuth, type StoredAuth } from "../account/auth.server";
import { detectLanguage } from "../platform/i18n.server";
import { COMMITTED_AT_KEY, commitSession, getSession } from "../platform/session.server";
import { loadSite } from "../platform/site.server";

/** One HTTP request as a loader or action sees it; `context` is made once per request (server.mjs). */
export interface RequestScope {
  request: Request;
  context?: AppLoadContext;
}

export interface MemberSession {
  auth: StoredAuth;
  /** The session cookie carrying the refreshed tokens when they were refreshed for this request. */
  refreshedCookie: string | null;
}

/** How old the session cookie may be before a member's request writes it again (its Max-Age runs from then). */
const RECOMMIT_MS = 24 * 3600_000;

/** Spec §4 checks every 10 s; refreshing that much before expiry keeps a token from lapsing between checks. */
const REFRESH_MARGIN_MS = 10_000;

/**
 * The member of this request, with the access token refreshed when its age reaches the token time
 * (spec §4). Worked out once per HTTP request: a form post without JavaScript runs the action and
 * then every loader with the same cookie, and they must all use the one refresh (the engine
 * rotates the refresh token, so a second refresh with the old one would fail). Keyed by the load
 * context, which is one object per request; by the request where there is none (tests).
 */
export function memberSession(scope: RequestScope): Promise<MemberSession | null> {
  const key: object = scope.context ?? scope.request;
  let session = perRequest.get(key);
  if (!session) {
    session = readMemberSession(scope.request);
    perRequest.set(key, session);
  }
  return session;
}

const perRequest = new WeakMap<object, Promise<MemberSession | null>>();

/**
 * Whether the member's access token is due for its refresh: its age reached the token time the
 * engine issued it with (`expires_in`, the site's `tokenTime`; decision 032). A cookie written
 * before the expiry was kept falls back to the site's token time now, at most 604800 s.
 */
async function refreshDue(auth: StoredAuth): Promise<boolean> {
  // Such a cookie's token was issued when every token lived the spec's 604800 s: never later than that.
  const expiresAt =
    auth.expiresAt ??
    auth.issuedAt +
      Math.min(
        DEFAULT_SITE_CONFIG.tokenTime,
        await loadSite()
          .then((s) => s.config.tokenTime)
          .catch(() => DEFAULT_SITE_CONFIG.tokenTime),
      ) *
        1000;
  return Date.now() >= expiresAt - REFRESH_MARGIN_MS;
}

/**
 * Whether this request's member session would refresh its token. A background read (the live
 * notices) asks first and leaves the refresh to the member's own requests: the engine answers
 * refreshes with one token that come together alike (decision 019), but a member's session should
 * not be kept alive, nor its tokens rotated, by a page merely left open.
 */
export async function sessionRefreshDue(request: Request): Promise<boolean> {
  const auth = storedAuth(await getSession(request));
  return auth !== null && (await refreshDue(auth));
}

async function readMemberSession(request: Request): Promise<MemberSession | null> {
  const session = await getSession(request);
  const auth = storedAuth(session);
  if (!auth) return null;
  if (!(await refreshDue(auth))) {
    // The cookie lives the cookie time from the answer that last wrote it: written again once a
    // day of use, a member active within the cookie time stays signed in (decision 032).
    const written = session.get(COMMITTED_AT_KEY);
    const stale = typeof written !== "number" || Date.now() - written >= RECOMMIT_MS;
    return { auth, refreshedCookie: stale ? await commitSession(request, session) : null };
  }
  const grant = await refreshCoalesced(auth.refreshToken, await detectLanguage(request));
  // A failed refresh keeps the member as they were (spec §4): if the token is gone for good, the
  // next engine call answers 401 and the client logs the member out.
  if (!grant) return { auth, refreshedCookie: null };
  const next = authFromGrant(grant);
  session.set(AUTH_KEY, next);
  return { auth: next, refreshedCookie: await commitSession(request, session) };
}

/**
 * Requests of one session that arrive together share one refresh. Nothing is kept once it is
 * answered: the browser has the new tokens only if this request's answer carries the cookie, and
 * any web process must be able to serve its next request (issue 11).
 */
const inFlight = new Map<string, Promise<TokenGrant | null>>();

function refreshCoalesced(refreshToken: string, lang: LanguageCode): Promise<TokenGrant | null> {
  let pending = inFlight.get(refreshToken);
  if (!pending) {
    pending = callEndpoint(endpoints.token, { body: { grant_type: "refresh_token", refresh_token: refreshToken } }, { lang })
      .catch(() => null)
      .finally(() => inFlight.delete(refreshToken));
    inFlight.set(refreshToken, pending);
  }
  return pending;
}
