import { request, type Server } from "node:http";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPageCache, pageCacheKey } from "./page-cache.mjs";

/** What the fake page renders: its nonce and a count, so a test sees which rendering it got. */
let renders = 0;
let clock = 1_000_000;
interface Answer {
  status: number;
  setCookie?: string;
  type?: string;
  delayMs?: number;
  cacheControl?: string;
  fails?: boolean;
  /** A rendering that hangs until this settles, and tells the test it has started. */
  hold?: Promise<void>;
  onStart?: () => void;
}
let answer: Answer = { status: 200 };
/** What each rendering was asked: shared (for everyone waiting) or for its requester alone. */
let sharedRenders: boolean[] = [];
const cache = createPageCache({ ttlMs: 1_000, maxEntries: 3, waitMs: 300, now: () => clock });
let server: Server;
let origin: string;
let nonces = 0;

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.cspNonce = `nonce${++nonces}`;
    res.set({ "Content-Security-Policy": `script-src 'nonce-${res.locals.cspNonce}'` });
    next();
  });
  app.all("*", async (req, res, next) => {
    try {
      await cache.serve(req, res, {
        nonce: res.locals.cspNonce,
        render: async (options) => {
          const nonce = res.locals.cspNonce as string;
          const n = ++renders;
          sharedRenders.push(options?.shared ?? false);
          const { status, setCookie, type = "text/html; charset=utf-8", delayMs = 0, cacheControl, fails, hold, onStart } = answer;
          onStart?.();
          if (hold) await hold;
          if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (fails) throw new Error("the engine went away");
          const headers = new Headers({ "content-type": type });
          if (setCookie) headers.set("set-cookie", setCookie);
          if (cacheControl) headers.set("cache-control", cacheControl);
          return new Response(`<html><script nonce="${nonce}">render ${n} of ${req.originalUrl}</script>${"x".repeat(2_000)}</html>`, { status, headers });
        },
        send: async (res, response) => {
          res.status(response.status);
          response.headers.forEach((value, name) => res.setHeader(name, value));
          res.end(Buffer.from(await response.arrayBuffer()));
        },
        securityHeaders: (nonce) => ({ "Content-Security-Policy": `script-src 'nonce-${nonce}'` }),
      });
    } catch (error) {
      next(error);
    }
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(() => server.close());

beforeEach(() => {
  cache.clear();
  answer = { status: 200 };
  sharedRenders = [];
  clock += 10_000;
});

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(path: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers["content-encoding"];
        const body = encoding === "br" ? zlib.brotliDecompressSync(raw) : encoding === "gzip" ? zlib.gunzipSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString() });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

const nonceInBody = (got: Got) => /nonce="([^"]+)"/.exec(got.body)?.[1];
const nonceInHeader = (got: Got) => /'nonce-([^']+)'/.exec(String(got.headers["content-security-policy"]))?.[1];

describe("the page cache", () => {
  it("renders a visitor's page once and serves that copy, with the nonce its scripts carry", async () => {
    const first = await get("/home/index");
    const second = await get("/home/index");
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.body).toBe(first.body);
    expect(sharedRenders).toEqual([true]);
    // The copy keeps the nonce it was rendered with, and its CSP header names that nonce, not
    // the one the server made for the second request.
    expect(nonceInHeader(second)).toBe(nonceInBody(first));
    expect(nonceInHeader(second)).not.toBe(`nonce${nonces}`);
  });

  it("renders again once the copy is older than its time to live", async () => {
    const first = await get("/market/main");
    clock += 999;
    expect((await get("/market/main")).body).toBe(first.body);
    clock += 2;
    const later = await get("/market/main");
    expect(later.headers["x-cache"]).toBe("MISS");
    expect(later.body).not.toBe(first.body);
  });

  it("renders every request of a visitor with a session or any cookie that is not a display preference", async () => {
    for (const cookie of ["__session=abc", "__toast=x", "lang=en; __session=abc", "other=1"]) {
      const a = await get("/home/index", { cookie });
      const b = await get("/home/index", { cookie });
      expect(a.body, cookie).not.toBe(b.body);
      expect(a.headers["x-cache"], cookie).toBeUndefined();
    }
  });

  it("keeps one copy per set of display preferences, in any order, and renders for a preference sent twice", async () => {
    const night = await get("/home/index", { cookie: "theme=night" });
    const day = await get("/home/index", { cookie: "theme=day" });
    const german = await get("/home/index", { cookie: "theme=night; lang=de" });
    expect(new Set([night.body, day.body, german.body]).size).toBe(3);
    expect((await get("/home/index", { cookie: "lang=de; theme=night" })).body).toBe(german.body);
    // The language is the cookie's, not the browser's header: one copy for every Accept-Language.
    expect((await get("/home/index", { cookie: "theme=day", "accept-language": "fr" })).body).toBe(day.body);
    // Set on two paths, a name comes twice: the page reads the first, so no copy is shared.
    const twice = await get("/home/index", { cookie: "lang=de; lang=fr" });
    expect(twice.headers["x-cache"]).toBeUndefined();
    expect((await get("/home/index", { cookie: "lang=fr; lang=de" })).body).not.toBe(twice.body);
  });

  it("stores no answer that sets a cookie, is not a 200, is not a page or says it is private", async () => {
    for (const shape of [
      { status: 200, setCookie: "invite=7; Path=/" },
      { status: 404 },
      { status: 200, type: "application/json" },
      { status: 200, cacheControl: "private, max-age=0" },
      { status: 200, cacheControl: "no-store" },
    ]) {
      answer = shape;
      const a = await get("/user/register?invite=7");
      const b = await get("/user/register?invite=7");
      expect(a.body, JSON.stringify(shape)).not.toBe(b.body);
      expect(b.status).toBe(shape.status);
    }
  });

  it("renders afresh for a hard reload (no-cache), files, data requests and other methods", async () => {
    const first = await get("/home/index");
    expect((await get("/home/index", { "cache-control": "no-cache" })).body).not.toBe(first.body);
    expect((await get("/home/index", { pragma: "no-cache" })).body).not.toBe(first.body);
    expect(pageCacheKey({ method: "GET", path: "/home/index.data", originalUrl: "/home/index.data", secure: false, headers: {} })).toBeNull();
    expect(pageCacheKey({ method: "GET", path: "/favicon.ico", originalUrl: "/favicon.ico", secure: false, headers: {} })).toBeNull();
    expect(pageCacheKey({ method: "POST", path: "/user/login", originalUrl: "/user/login", secure: false, headers: {} })).toBeNull();
    expect(pageCacheKey({ method: "HEAD", path: "/user/login", originalUrl: "/user/login", secure: false, headers: {} })).toBeNull();
  });

  it("keeps a bot's whole document apart from a browser's stream, and each query and host apart", async () => {
    const browser = await get("/home/index", { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" });
    const bot = await get("/home/index", { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    const query = await get("/home/index?tab=new", { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" });
    const otherHost = await get("/home/index", { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120", host: "evil.example" });
    expect(new Set([browser.body, bot.body, query.body, otherHost.body]).size).toBe(4);
  });

  it("renders a page asked for by many at once a single time", async () => {
    answer = { status: 200, delayMs: 60 };
    const before = renders;
    const all = await Promise.all(Array.from({ length: 8 }, () => get("/exchange/full-screen/BTC_USDT")));
    expect(renders - before).toBe(1);
    expect(new Set(all.map((g) => g.body)).size).toBe(1);
    expect(all.filter((g) => g.headers["x-cache"] === "MISS")).toHaveLength(1);
  });

  it("lets waiters render for themselves when the shared rendering fails, cannot be kept or hangs", async () => {
    for (const shape of [
      { status: 200, fails: true, delayMs: 60 },
      { status: 200, setCookie: "invite=7", delayMs: 60 },
    ]) {
      answer = shape;
      const before = renders;
      const all = await Promise.all(Array.from({ length: 3 }, () => get("/user/login")));
      expect(renders - before, JSON.stringify(shape)).toBe(3);
      expect(all.map((g) => g.status)).toEqual(shape.fails ? [500, 500, 500] : [200, 200, 200]);
      expect(sharedRenders.slice(-3).filter(Boolean)).toHaveLength(1);
    }
    // A rendering that hangs past the wait (300 ms here): the waiter renders its own page while the
    // shared one still hangs (no timing upper bound: the waiter's answer arriving before the release
    // is the proof), and only after waiting for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowStarted = new Promise<void>((resolve) => (answer = { status: 200, hold: held, onStart: resolve }));
    const slow = get("/market/main");
    await slowStarted;
    answer = { status: 200 };
    const started = Date.now();
    const waiter = await get("/market/main");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(waiter.headers["x-cache"]).toBeUndefined();
    release();
    expect((await slow).headers["x-cache"]).toBe("MISS");
  });

  it("sends its brotli or gzip copy as the client accepts, and the same page underneath", async () => {
    const plain = await get("/user/login");
    const br = await get("/user/login", { "accept-encoding": "gzip, deflate, br" });
    const gz = await get("/user/login", { "accept-encoding": "gzip" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(br.body).toBe(plain.body);
    expect(gz.body).toBe(plain.body);
    expect(Number(gz.headers["content-length"])).toBeLessThan(plain.body.length);
    expect(gz.headers.vary).toBe("Accept-Encoding");
  });

  it("holds at most its number of pages, letting the oldest go", async () => {
    const first = await get("/a");
    await get("/b");
    await get("/c");
    expect((await get("/a")).body).toBe(first.body);
    await get("/d"); // /b, the least recently used, goes
    expect(cache.size()).toBe(3);
    expect((await get("/a")).body).toBe(first.body);
  });
});
