// Request guards of the web tier, in one place for every action (issue 9): a state-changing request
// from another site is refused (CSRF, Remix data requests included), a body that is not a form is a
// 400 before any action runs, and a form body that cannot be parsed is a 400 instead of a 500.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * Whether a state-changing request comes from another site. The browser's `Origin` (sent with
 * every cross-origin POST, fetch and form) must name this host; without it, `Sec-Fetch-Site` must
 * not say cross-site. A request with neither comes from no browser, so carries no member's cookie
 * by a third party's hand.
 * @param {{ method: string; headers: Record<string, string | string[] | undefined> }} req
 * @returns {boolean}
 */
export function isCrossSiteWrite(req) {
  if (SAFE_METHODS.has(req.method)) return false;
  const origin = header(req, "origin");
  // NOTE: the Host header, never X-Forwarded-Host; a proxy in front must pass Host through.
  const host = header(req, "host");
  if (origin) {
    try {
      return new URL(origin).host !== host;
    } catch {
      return true; // "null" (a sandboxed frame, a privacy redirect) or garbage
    }
  }
  const site = header(req, "sec-fetch-site");
  return site === "cross-site" || site === "same-site";
}

/**
 * Why a state-changing request's body cannot be a form, or null: Remix actions read forms only.
 * @param {{ method: string; headers: Record<string, string | string[] | undefined> }} req
 * @returns {string | null}
 */
export function unreadableFormReason(req) {
  if (SAFE_METHODS.has(req.method)) return null;
  const type = (header(req, "content-type") ?? "").toLowerCase();
  const length = header(req, "content-length");
  if (!type) return length === undefined || length === "0" ? null : "a body without a Content-Type";
  if (!FORM_TYPES.some((t) => type.startsWith(t))) return "a body that is not a form";
  if (type.startsWith("multipart/form-data") && !/;\s*boundary=[^;]+/.test(type)) return "a multipart body without a boundary";
  return null;
}

/**
 * Whether an error thrown by an action is a form body that could not be parsed (cut off, wrong
 * boundary): the sender's fault.
 * @param {unknown} error
 * @returns {boolean}
 */
export function isUnreadableBodyError(error) {
  return error instanceof Error && /parse (body|content) as FormData|malformed multipart|Content-Type was not one of/i.test(error.message);
}

/**
 * The server build with every route's action wrapped: an unreadable body answers 400.
 * @template {{ routes: Record<string, { module: Record<string, unknown> }> }} B
 * @param {B} build
 * @returns {B}
 */
export function guardActions(build) {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const action = route.module.action;
      if (typeof action !== "function") return [id, route];
      const guarded = async (/** @type {unknown} */ args) => {
        try {
          return await action(args);
        } catch (error) {
          if (isUnreadableBodyError(error)) throw new Response("The form could not be read. Please send it again.", { status: 400 });
          throw error;
        }
      };
      return [id, { ...route, module: { ...route.module, action: guarded } }];
    }),
  );
  return { ...build, routes };
}

/** @param {{ headers: Record<string, string | string[] | undefined> }} req @param {string} name */
function header(req, name) {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The security headers of every response the web tier sends (pages, redirects, data requests,
 * static files). Scripts run only from this origin or with this response's nonce; HSTS only when
 * the request came over TLS (directly or through a trusted proxy), so a plain-HTTP demo keeps working.
 * @param {string} nonce
 * @param {boolean} secure
 * @returns {Record<string, string>}
 */
export function securityHeaders(nonce, secure) {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // React style attributes (depth bars, chart sizes) need inline styles; scripts never do.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(secure ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
