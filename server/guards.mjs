// Request guards of the web tier, in one place for every action (issue 9): a state-changing request
// from another site is refused (CSRF, Remix data requests included), a body that is not a form is a
// 400 before any action runs, a form body that cannot be parsed is a 400 instead of a 500, and a
// body over its limit is a 413 while it streams in.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

// The body limits of the web tier, in one place. Remix reads a whole form into memory (a 200 MB
// login post took the web process from 0.41 to 2.3 GB), so a body is refused as soon as it is
// known to be over its limit. A form (login, an order, a transfer, settings) is under a few KB.
// A multipart body is the KYC upload: three ID images (front, back, in hand) of at most 5 MB each
// (the protocol's MAX_ID_IMAGE_BYTES, the engine's limit as well; guards.test.ts holds the two
// together), plus 1 MB for its other fields and the multipart framing. They live here, not in
// protocol/limits.ts: server.mjs runs as plain JavaScript and cannot import TypeScript.
/** The most bytes a form body (anything but multipart) may have. */
export const FORM_BODY_LIMIT = 256 * 1024;
/** The most bytes a multipart body (the KYC upload) may have. */
export const UPLOAD_BODY_LIMIT = 3 * 5 * 1024 * 1024 + 1024 * 1024;
const BODY_TOO_LARGE = "BODY_TOO_LARGE";

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
          // limitBody has answered 413 already; this answer is only for the record (nothing logged).
          if (isBodyTooLargeError(error)) throw new Response("The form is too large.", { status: 413 });
          throw error;
        }
      };
      return [id, { ...route, module: { ...route.module, action: guarded } }];
    }),
  );
  return { ...build, routes };
}

/** The pages whose forms upload files (multipart): the KYC page alone. */
const UPLOAD_PATHS = new Set(["/account/center/kyc", "/account/center/kyc.data"]);

/**
 * The body limit of a request: the upload's for a multipart post to a page that takes files, a
 * form's for everything else (a multipart post to the login page gets the form's few hundred KB,
 * not the KYC page's 16 MB).
 * @param {{ headers: Record<string, string | string[] | undefined>, url?: string, originalUrl?: string }} req
 * @returns {number}
 */
export function bodyLimit(req) {
  const multipart = (header(req, "content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
  const path = (req.originalUrl ?? req.url ?? "").split("?")[0].replace(/\/+$/, "");
  return multipart && UPLOAD_PATHS.has(path) ? UPLOAD_BODY_LIMIT : FORM_BODY_LIMIT;
}

/**
 * Middleware: a body over its limit (bodyLimit) is answered 413 with `Connection: close`. A
 * Content-Length over it is refused at once, before a byte of the body is read; a chunked body is
 * counted as the socket delivers it, whoever reads it. From the first byte past the limit nothing
 * more (not even the body's end) reaches the reader, so no action runs on a cut-off form; reading
 * stops, and once the connection is closed the reader (an action's `formData()`) fails with an
 * error that guardActions turns into a quiet 413.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {() => void} next
 * @returns {void}
 */
export function limitBody(req, res, next) {
  const limit = bodyLimit(req);
  if (Number(header(req, "content-length") ?? 0) > limit) return refuseBody(req, res, limit);
  let received = 0;
  const push = req.push;
  // NOTE: Node's HTTP parser hands each piece of the body to the request's `push` as it arrives
  // (and stops reading the socket when it answers false): counting there costs no copy and does
  // not take the stream from Remix, which reads it later.
  req.push = function (chunk, encoding) {
    if (received > limit) return false;
    if (chunk === null) return push.call(this, chunk);
    received += chunk.length;
    if (received <= limit) return push.call(this, chunk, encoding);
    refuseBody(req, res, limit);
    return false;
  };
  next();
}

/**
 * Whether an error is limitBody's: the body was over its limit (the sender's fault).
 * @param {unknown} error
 * @returns {boolean}
 */
export function isBodyTooLargeError(error) {
  return error instanceof Error && /** @type {{ code?: unknown }} */ (error).code === BODY_TOO_LARGE;
}

/**
 * Answers 413 (unless an answer is under way: then the connection is simply closed) and fails the
 * body's reader once the connection is closed.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {number} limit
 */
function refuseBody(req, res, limit) {
  const tooLarge = Object.assign(new Error(`the request body is over ${limit} bytes`), { code: BODY_TOO_LARGE });
  if (res.headersSent) return void req.destroy(tooLarge);
  res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
  const size = limit >= 1 << 20 ? `${limit / (1 << 20)} MB` : `${limit / 1024} KB`;
  res.end(`Payload too large: this request's body may have at most ${size}.`);
  // Not before: destroying the request closes the socket, and the answer must get out first.
  req.socket.once("close", () => req.destroy(tooLarge));
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
