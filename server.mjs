// The web tier's HTTP server: Remix behind Express (static files, compression), nothing else.
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const BUILD_PATH = path.resolve("build/index.js");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";

const build = await import(BUILD_PATH);

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", "loopback");
app.use(compression());
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
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
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
