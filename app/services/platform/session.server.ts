import type { Session } from "@remix-run/node";
import { DEFAULT_SITE_CONFIG } from "#protocol/site-config";
import { isSecureRequest } from "./cookie-security.server";
import { createEncryptedCookieSessionStorage } from "./encrypted-session.server";
import { sessionSecrets } from "./env.server";
import { loadSite } from "./site.server";

const DAY_SECONDS = 24 * 60 * 60;

/**
 * The session: an httpOnly, SameSite=Lax cookie, encrypted and signed with rotating secrets
 * (`SESSION_SECRET` may list several; the first encrypts and signs). The member's engine tokens
 * live here: never readable by browser JavaScript, nor by anyone who sees the cookie.
 */
export const sessionStorage = createEncryptedCookieSessionStorage({
  name: "__session",
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secrets: sessionSecrets(),
  // Spec §9: cookie time 7 days; each commit sets the site's `cookieDays` (decision 032).
  maxAge: DEFAULT_SITE_CONFIG.cookieDays * DAY_SECONDS,
});

export async function getSession(request: Request): Promise<Session> {
  return sessionStorage.getSession(request.headers.get("cookie"));
}

/** When the session cookie was last written (ms): see `memberSession`, which writes it again after a day. */
export const COMMITTED_AT_KEY = "committedAt";

/**
 * The session's Set-Cookie: Secure behind TLS, living the site's cookie time (`cookieDays`, spec
 * §9: 7 days) from this answer; the default when the configuration cannot be read.
 */
export async function commitSession(request: Request, session: Session): Promise<string> {
  session.set(COMMITTED_AT_KEY, Date.now());
  const days = await loadSite()
    .then((site) => site.config.cookieDays)
    .catch(() => DEFAULT_SITE_CONFIG.cookieDays);
  return sessionStorage.commitSession(session, { secure: isSecureRequest(request), maxAge: days * DAY_SECONDS });
}

const INVITE_CODE = /^[A-Za-z0-9]{4,16}$/;

/**
 * Stores an `invite_code` query value in the session (spec §2: any page URL may carry one).
 * Returns the Set-Cookie header when something changed.
 */
export async function rememberInviteCode(request: Request): Promise<string | null> {
  const code = new URL(request.url).searchParams.get("invite_code");
  if (!code || !INVITE_CODE.test(code)) return null;
  const session = await getSession(request);
  if (session.get("inviteCode") === code) return null;
  session.set("inviteCode", code);
  return commitSession(request, session);
}

export async function getInviteCode(request: Request): Promise<string | null> {
  const value = (await getSession(request)).get("inviteCode");
  return typeof value === "string" ? value : null;
}
