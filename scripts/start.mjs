// `npm start`: builds the web tier, starts the engine (embedded database unless DATABASE_URL is
// set) and, once it answers /healthz, the web tier on PORT (3000). Both are supervised: one that
// dies is restarted with a back-off while the other keeps serving. Ctrl-C stops both.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { buildEngine } from "./build-engine.mjs";
import { precompressAssets } from "./precompress.mjs";
import { supervise } from "./supervise.mjs";

const env = { ...process.env };
env.NODE_ENV ??= "production";
env.PORT ??= "3000";
env.ENGINE_PORT ??= "8080";
env.ENGINE_URL ??= `http://127.0.0.1:${env.ENGINE_PORT}`;
// A local demo may run in production mode with the development secret; a real deployment sets
// SESSION_SECRET (the web tier refuses the default secret otherwise).
if (!env.SESSION_SECRET) {
  env.ALLOW_DEV_SECRET = "1";
  console.warn("[start] SESSION_SECRET is not set: using the development secret (fine locally, never in production).");
}

// A second exchange beside a first (the e2e suite's variant server): it waits until the first
// answers (so its build is done) and runs that build.
if (env.START_AFTER_URL) {
  for (let ready = false; !ready;) {
    ready = await fetch(env.START_AFTER_URL).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await sleep(500);
  }
}
const skipBuild = process.argv.includes("--no-build") || env.SKIP_BUILD === "1" || Boolean(env.START_AFTER_URL);
if (!skipBuild) {
  const built = spawnSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "build"], { stdio: ["ignore", "inherit", "pipe"], env });
  const errors = built.stderr?.toString() ?? "";
  if (built.status !== 0) {
    process.stderr.write(errors);
    process.exit(built.status ?? 1);
  }
  // A finished build sometimes ends with esbuild's service reporting its own shutdown as a Go
  // "deadlock" trace (the Remix CLI exits while the service waits): noise, not an error.
  process.stderr.write(errors.replace(/fatal error: all goroutines are asleep - deadlock![\s\S]*$/, ""));
  // The assets' gzip and brotli copies, which the web server sends as they are (decision 037).
  await precompressAssets();
}
// The engine runs built (plain JavaScript), not through tsx: it starts in half the time (0.4 s to build).
if (!skipBuild || !existsSync("build/engine/main.mjs")) await buildEngine();

// Both processes are supervised: one that dies is restarted with a back-off and the other keeps
// serving (scripts/supervise.mjs). Exit code 75: another engine holds the data; 78: a bad
// configuration. Neither is retried, and the whole exchange stops.
const FATAL = [75, 78];
const processes = [];
let stopping = false;
function run(name, args) {
  processes.push(supervise({ name, args, env, fatalCodes: FATAL, onGiveUp: (code) => stop(code ?? 1) }));
}
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(code), 5000).unref();
  await Promise.all(processes.map((p) => p.stop()));
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

run("engine", ["--enable-source-maps", "build/engine/main.mjs"]);
const deadline = Date.now() + 60_000;
for (;;) {
  try {
    const res = await fetch(`${env.ENGINE_URL}/healthz`);
    if (res.ok) break;
  } catch {
    // not up yet
  }
  if (stopping) process.exit(1);
  if (Date.now() > deadline) {
    console.error("[start] the engine did not become healthy within 60 s");
    stop(1);
  }
  await sleep(250);
}
run("web", ["server.mjs"]);
