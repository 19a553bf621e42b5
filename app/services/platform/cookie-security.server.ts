import { webEnv } from "./env.server";

/**
 * Cookies are Secure when the page was served over TLS: directly, or behind a TLS proxy when
 * TRUST_PROXY says the web tier sits behind one (server.mjs then sets `X-Forwarded-Proto` to what
 * Express read from those proxies). Without TRUST_PROXY the header is the client's word, ignored.
 */
export function isSecureRequest(request: Request, behindProxy = Boolean(webEnv().TRUST_PROXY)): boolean {
  const forwarded = behindProxy ? request.headers.get("x-forwarded-proto") : null;
  if (forwarded) return forwarded.split(",")[0]!.trim() === "https";
  return new URL(request.url).protocol === "https:";
}
