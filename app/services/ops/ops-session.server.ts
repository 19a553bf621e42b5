import { isSecureRequest } from "../platform/cookie-security.server";
import { createEncryptedCookieSessionStorage } from "../platform/encrypted-session.server";
import { sessionSecrets } from "../platform/env.server";

/**
 * The operator's session (decision 043): a cookie of its own, apart from any member's, sent only
 * from the exchange's own pages (SameSite=Strict), httpOnly, encrypted like the members' and
 * Secure behind TLS. It lives as long as the browser (no Max-Age); the engine ends the session
 * itself after 15 idle minutes or 12 hours.
 *
 * NOTE: its Path is `/`, not `/ops`: Remix asks a page's data at `/ops.data` for `/ops`, which a
 * cookie of path `/ops` is not sent to (the dashboard's data came back as "signed out").
 */
const storage = createEncryptedCookieSessionStorage({
  name: "__ops",
  httpOnly: true,
  sameSite: "strict",
  path: "/",
  secrets: sessionSecrets(),
});

/** The operator's engine token, if this browser is signed in to the console. */
export async function opsToken(request: Request): Promise<string | null> {
  const token = (await storage.getSession(request.headers.get("cookie"))).get("token");
  return typeof token === "string" && token ? token : null;
}

/** The Set-Cookie that signs this browser in with `token`. */
export async function opsSignInCookie(request: Request, token: string): Promise<string> {
  const session = await storage.getSession(null);
  session.set("token", token);
  return storage.commitSession(session, { secure: isSecureRequest(request) });
}

/** The Set-Cookie that signs this browser out of the console. */
export async function opsSignOutCookie(request: Request): Promise<string> {
  return storage.destroySession(await storage.getSession(null), { secure: isSecureRequest(request) });
}
