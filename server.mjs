// The web tier's HTTP server: Remix behind Express (static files, compression), nothing else.
import { randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import path from "node:path";
// The Express adapter's own request and response conversion (exported by its module, not by its
// index): the handler below is the adapter's, with the page cache between (decision 038).
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import { createRequestHandler } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { guardActions, isCrossSiteWrite, limitBody, securityHeaders, unreadableFormReason } from "./server/guards.mjs";
import { createPageCache } from "./server/page-cache.mjs";
import { precompressed } from "./server/precompressed.mjs";
import { errorStatus, requestErrorLog } from "./server/request-log.mjs";
import { socketIoProxy } from "./server/socket-proxy.mjs";

// BUILD_DIR: see remix.config.js (a second build of the same checkout lives in its own folder).
const BUILD_DIR = process.env.BUILD_DIR || "build";
const BUILD_PATH = path.resolve(BUILD_DIR, "index.js");
const ASSETS_DIR = BUILD_DIR === "build" ? "public/build" : path.join(BUILD_DIR, "public");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";

// Every route's action answers 400 to a form body it cannot parse (server/guards.mjs).
const build = guardActions(await import(BUILD_PATH));

const app = express();
app.disable("x-powered-by");
// Whose X-Forwarded-For and X-Forwarded-Proto to believe: only the proxies named in TRUST_PROXY
// (addresses or subnets, comma-separated, e.g. the load balancer). Unset: none, so no client can
// pick its own address to dodge the per-address limits (issue 9), nor make cookies Secure.
app.set("trust proxy", process.env.TRUST_PROXY ? process.env.TRUST_PROXY.split(",").map((a) => a.trim()) : false);
// Live islands talk socket.io to the engine through this same origin (spec: the real-time address
// derives from the page host): long-polling requests and the WebSocket upgrade are passed through.
// Their answers carry the pages' security headers (the nonce unused: they are no pages).
const engine = new URL(process.env.ENGINE_URL ?? `http://127.0.0.1:${process.env.ENGINE_PORT ?? 8080}`);
app.use(
  "/socket.io",
  socketIoProxy(engine, (req) => securityHeaders(randomBytes(16).toString("base64"), req.secure)),
);
// Every response from here on (static files, redirects, data requests, pages) carries the
// security headers; pages run only scripts with this response's nonce.
app.use((req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  res.set(securityHeaders(res.locals.cspNonce, req.secure));
  next();
});
// Compressed from 256 bytes (the library's default is 1 KB): most of a page's script chunks are
// smaller than 1 KB and gzip halves them (decision 034); below 256 bytes gzip saves nothing.
app.use(compression({ threshold: 256 }));
// Built assets go out as the build's brotli or gzip copies (decision 037); compression above
// leaves an encoded response as it is.
const assetOptions = { immutable: true, maxAge: "1y" };
app.use("/build", precompressed(ASSETS_DIR, assetOptions), express.static(ASSETS_DIR, assetOptions));
// Files in public/ all have an extension; a page's path has none, so it is not looked up on disk
// first (a failed `stat` per page view; decision 036).
const publicFiles = express.static("public", { maxAge: "1h" });
app.use((req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) ? publicFiles(req, res, next) : next()));
// The client address the engine sees (login log, limits) and the scheme cookies' Secure flag
// follows: Express's own reading, which trusts a forwarded header only from a TRUST_PROXY proxy. A
// client cannot spoof either by sending the header.
app.use((req, _res, next) => {
  req.headers["x-forwarded-for"] = req.ip ?? "";
  req.headers["x-forwarded-proto"] = req.protocol;
  next();
});
app.get("/healthz", (_req, res) => res.json({ status: "ok" }));
// One gate for every state-changing request, document posts and Remix data requests alike:
// another site may not post with a member's cookie (CSRF), an action only ever reads a form, and
// a body over its limit is a 413 while it streams in (server/guards.mjs: the limits).
app.use((req, res, next) => {
  if (isCrossSiteWrite(req)) return res.status(403).type("text/plain").send("Forbidden: this request came from another site.");
  const unreadable = unreadableFormReason(req);
  if (unreadable) return res.status(400).type("text/plain").send(`Bad request: ${unreadable}; the exchange's forms send form data.`);
  limitBody(req, res, next);
});
// Pages a visitor without a session asks for are rendered once per PAGE_CACHE_MS (default 1 s) and
// served to everyone asking meanwhile, compressed once (decision 038); 0 renders every request.
const handleRequest = createRequestHandler(build, build.mode);
const NEVER_CLOSED = { on: () => NEVER_CLOSED };
const pages = createPageCache({ ttlMs: Number(process.env.PAGE_CACHE_MS ?? 1_000) });
app.all("*", async (req, res, next) => {
  try {
    await pages.serve(req, res, {
      nonce: res.locals.cspNonce,
      // A shared rendering is not aborted when its first requester closes (createRemixRequest ties
      // the request's abort signal to the response it is given; this one never closes).
      render: ({ shared = false } = {}) =>
        handleRequest(createRemixRequest(req, shared ? NEVER_CLOSED : res), { routeManifest: build.routes, cspNonce: res.locals.cspNonce }),
      // A body refused with 413 while an action read it was answered then: Remix's later answer is dropped.
      send: (res, response) => (res.headersSent ? response.body?.cancel() : sendRemixResponse(res, response)),
      securityHeaders: (nonce) => securityHeaders(nonce, req.secure),
    });
  } catch (error) {
    next(error);
  }
});

// What Express meets itself (a path that cannot be decoded is a 400 URIError): a client's
// malformed request is one log line, a server fault keeps its stack (server/request-log.mjs).
// (Express knows an error handler by its four parameters.)
app.use((error, req, res, _next) => {
  const status = errorStatus(error);
  console.error(requestErrorLog({ method: req.method, url: req.originalUrl }, status, error));
  if (res.headersSent) return void res.destroy();
  res
    .status(status)
    .type("text/plain")
    .send(status < 500 ? "Bad request." : "Internal server error.");
});

// A request must arrive whole in time, or it is answered 408 and closed: a client trickling its
// body holds no connection for long (issue 9). Two minutes leave room for a 15 MB KYC upload on a
// slow mobile link; headers get 20 s. NOTE: Node checks these only every
// `connectionsCheckingInterval` (30 s by default), hence a shorter one.
const requestTimeout = Number(process.env.WEB_REQUEST_TIMEOUT_MS ?? 120_000);
const server = http
  .createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(20_000, requestTimeout),
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(requestTimeout / 4))),
    },
    app,
  )
  .listen(port, host, () => {
    console.log(`web listening on http://localhost:${port}`);
  });
server.on("upgrade", (req, socket, head) => {
  if (!req.url?.startsWith("/socket.io/")) return socket.destroy();
  const upstream = net.connect(Number(engine.port), engine.hostname, () => {
    const headers = Object.entries({ ...req.headers, host: engine.host }).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v}`);
    upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n`);
    if (head?.length) upstream.write(head);
    upstream.pipe(socket).pipe(upstream);
  });
  const close = () => {
    socket.destroy();
    upstream.destroy();
  };
  upstream.on("error", close);
  socket.on("error", close);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
