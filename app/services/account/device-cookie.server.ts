import { createCookie } from "@remix-run/node";
import { DEVICE_COOKIE_DAYS } from "#protocol/member";
import { isSecureRequest } from "../platform/cookie-security.server";
import { sessionSecrets } from "../platform/env.server";

/**
 * This browser's device cookie (decision 040): the opaque value the engine answered at its last
 * login, sent back at the next one so that strangers' wrong passwords do not lock the owner out.
 * A cookie of its own, not the session: it outlives a logout and the session's cookie time. It
 * is httpOnly, signed with the session's secrets, and sent only to the login and registration
 * pages (`/user`). A value that does not verify counts as none, as the engine counts any value
 * it did not issue to that account.
 */
const deviceCookie = createCookie("__device", {
  path: "/user",
  sameSite: "lax",
  httpOnly: true,
  secrets: sessionSecrets(),
  maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
});

/** The device cookie this browser sent, if it is one the web tier signed. */
export async function deviceCookieOf(request: Request): Promise<string | undefined> {
  const value: unknown = await deviceCookie.parse(request.headers.get("cookie"));
  return typeof value === "string" && value.length > 0 && value.length <= 200 ? value : undefined;
}

/** The Set-Cookie of a device cookie the engine issued: Secure behind TLS. */
export function deviceCookieHeader(request: Request, value: string): Promise<string> {
  return deviceCookie.serialize(value, { secure: isSecureRequest(request) });
}
