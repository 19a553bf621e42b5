// A shared cache of the pages a visitor without a session is served (decision 038): the same
// document for everyone who asks for it within `ttlMs`, rendered once, compressed once.
//
// What makes a request a candidate: a GET for a page (a path without an extension), from a visitor
// whose cookies are only display preferences (no session, no toast, nothing else), without
// `Cache-Control: no-cache` (a hard reload asks for a fresh page). What makes an answer storable:
// 200, HTML, no Set-Cookie, and no `Cache-Control: private` or `no-store` from the route.
// Anything else is rendered for its requester as usual.
//
// The CSP nonce: a stored page keeps the nonce it was rendered with, and every visitor it is
// served to gets the CSP header with that nonce. Decision 038 says what that weakens against a
// nonce per response and why it is taken for visitors' pages.
import { gzip as gzipCallback, brotliCompress as brotliCallback, constants as zlibConstants } from "node:zlib";
import { promisify } from "node:util";
import { isbot } from "isbot";
import { chooseCopy } from "./precompressed.mjs";

const gzip = promisify(gzipCallback);
const brotli = promisify(brotliCallback);

/** Cookies that only choose how a page looks; a visitor with any other cookie is rendered for. */
export const PREFERENCE_COOKIES = new Set(["lang", "currency", "theme", "assets"]);

/**
 * The cache key of a request, or null when the request must be rendered for its sender.
 * @param {{ method: string; path: string; originalUrl: string; secure: boolean; headers: Record<string, string | string[] | undefined> }} req
 * @returns {string | null}
 */
export function pageCacheKey(req) {
  if (req.method !== "GET") return null;
  if (/\.[A-Za-z0-9]+$/.test(req.path)) return null; // files and single-fetch `.data` requests
  const noCache = `${header(req, "cache-control") ?? ""} ${header(req, "pragma") ?? ""}`;
  if (/no-cache|no-store/i.test(noCache)) return null;
  const preferences = new Map();
  for (const part of (header(req, "cookie") ?? "").split(";")) {
    const pair = part.trim();
    if (!pair) continue;
    const name = pair.slice(0, pair.indexOf("=") >>> 0).trim();
    // A name twice (set on two paths): the page reads the first, so the order would matter.
    if (!PREFERENCE_COOKIES.has(name) || preferences.has(name)) return null;
    preferences.set(name, pair);
  }
  // A bot is sent the whole document at once, a browser a stream (entry.server.tsx): two documents.
  const reader = isbot(header(req, "user-agent") ?? "") ? "bot" : "browser";
  // The host (with its port) too: a page may name its own address, and a request naming another
  // host must not put that address in everyone's copy. Not `Accept-Language`: the language is the
  // `lang` cookie's or the site's default (app/services/platform/i18n.server.ts says so).
  return [req.secure ? "https" : "http", (header(req, "host") ?? "").toLowerCase(), reader, req.originalUrl, [...preferences.values()].sort().join("; ")].join(
    "\n",
  );
}

/**
 * @typedef {{ status: number; headers: Array<[string, string]>; body: Buffer; nonce: string;
 *   storedAt: number; expiresAt: number; gzip?: Promise<Buffer>; br?: Promise<Buffer> }} Entry
 */

/**
 * @param {{ ttlMs: number; maxEntries?: number; waitMs?: number; now?: () => number }} options
 */
export function createPageCache({ ttlMs, maxEntries = 200, waitMs = 2_000, now = Date.now }) {
  /** @type {Map<string, Entry>} */
  const entries = new Map();
  /** @type {Map<string, Promise<Entry | null>>} */
  const rendering = new Map();

  /** @param {string} key @param {Entry} entry */
  function store(key, entry) {
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value);
  }

  /**
   * Serves `req` from the cache, or renders it with `render` (which renders the page with the
   * CSP nonce `nonce`) and keeps the answer when it may be shared.
   * @param {import("express").Request} req
   * @param {import("express").Response} res
   * @param {{ nonce: string; render: (options?: { shared: boolean }) => Promise<Response>; send: (res: import("express").Response, response: Response) => Promise<void>; securityHeaders: (nonce: string) => Record<string, string> }} io
   */
  async function serve(req, res, io) {
    const key = ttlMs > 0 ? pageCacheKey(req) : null;
    if (key === null) {
      return io.send(res, await io.render());
    }
    const fresh = entries.get(key);
    if (fresh && fresh.expiresAt > now()) {
      store(key, fresh); // the most recently used is the last to go
      return sendEntry(req, res, fresh, "HIT", io, now());
    }
    // Requests for the same page that arrive while it renders wait for that one rendering, for
    // at most `waitMs`: a rendering that hangs holds nobody else for longer.
    const pending = rendering.get(key);
    if (pending) {
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const entry = await Promise.race([pending, new Promise((resolve) => (timer = setTimeout(() => resolve(null), waitMs)))]);
      clearTimeout(timer);
      if (entry) {
        return sendEntry(req, res, entry, "HIT", io, now());
      }
      return io.send(res, await io.render());
    }
    /** @type {(entry: Entry | null) => void} */
    let settle = () => {};
    rendering.set(key, new Promise((resolve) => (settle = resolve)));
    /** @type {Entry | null} */
    let entry = null;
    try {
      // Rendered for everyone waiting: not cut off when its first requester goes away.
      const response = await io.render({ shared: true });
      if (!isShareable(response)) return await io.send(res, response);
      const body = Buffer.from(await response.arrayBuffer());
      const at = now();
      entry = { status: response.status, headers: [...response.headers.entries()], body, nonce: io.nonce, storedAt: at, expiresAt: at + ttlMs };
      store(key, entry);
    } finally {
      // Waiters take the page, or (none kept: it failed or is not to be shared) render their own.
      settle(entry);
      rendering.delete(key);
    }
    return sendEntry(req, res, entry, "MISS", io, entry.storedAt);
  }

  return { serve, size: () => entries.size, clear: () => entries.clear() };
}

/** @param {Response} response */
function isShareable(response) {
  return (
    response.status === 200 &&
    !response.headers.has("set-cookie") &&
    !/no-store|private/i.test(response.headers.get("cache-control") ?? "") &&
    /^text\/html/i.test(response.headers.get("content-type") ?? "")
  );
}

/**
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 * @param {Entry} entry
 * @param {"HIT" | "MISS"} outcome
 * @param {{ securityHeaders: (nonce: string) => Record<string, string> }} io
 * @param {number} at
 */
async function sendEntry(req, res, entry, outcome, io, at) {
  res.status(entry.status);
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.set(io.securityHeaders(entry.nonce));
  res.setHeader("X-Cache", outcome);
  res.setHeader("Age", String(Math.max(0, Math.floor((at - entry.storedAt) / 1000))));
  res.setHeader("Vary", "Accept-Encoding");
  const copy = chooseCopy(["br", "gzip"], header(req, "accept-encoding"));
  let body = entry.body;
  if (copy?.encoding === "br") {
    entry.br ??= brotli(entry.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } });
    body = await entry.br;
  } else if (copy?.encoding === "gzip") {
    entry.gzip ??= gzip(entry.body, { level: 6 });
    body = await entry.gzip;
  }
  if (copy) res.setHeader("Content-Encoding", copy.encoding);
  res.setHeader("Content-Length", String(body.length));
  res.end(body);
}

/** @param {{ headers: Record<string, string | string[] | undefined> }} req @param {string} name */
function header(req, name) {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
