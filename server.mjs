// The web tier's HTTP server: Remix behind Express (static files, compression), nothing else.
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

// BUILD_DIR: see remix.config.js (a second build of the same checkout lives in its own folder).
const BUILD_DIR = process.env.BUILD_DIR || "build";
const BUILD_PATH = path.resolve(BUILD_DIR, "index.js");
const ASSETS_DIR = BUILD_DIR === "build" ? "public/build" : path.join(BUILD_DIR, "public");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";

const build = await import(BUILD_PATH);

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", "loopback");
// Live islands talk socket.io to the engine through this same origin (spec: the real-time address
// derives from the page host): long-polling requests and the WebSocket upgrade are passed through.
const engine = new URL(process.env.ENGINE_URL ?? `http://127.0.0.1:${process.env.ENGINE_PORT ?? 8080}`);
app.use("/socket.io", (req, res) => {
  const upstream = http.request(
    { host: engine.hostname, port: engine.port, method: req.method, path: req.originalUrl, headers: { ...req.headers, host: engine.host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.status(502).end();
    else res.destroy();
  });
  req.pipe(upstream);
});
app.use(compression());
app.use("/build", express.static(ASSETS_DIR, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
// The client address the engine sees (login log, limits): Express's own reading, which trusts a
// forwarded header only from a proxy on loopback. A browser cannot spoof it by sending the header.
app.use((req, _res, next) => {
  req.headers["x-forwarded-for"] = req.ip ?? "";
  next();
});
app.get("/healthz", (_req, res) => res.json({ status: "ok" }));
app.all("*", createRequestHandler({ build, mode: build.mode, getLoadContext: () => ({ routeManifest: build.routes }) }));

const server = app.listen(port, host, () => {
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
