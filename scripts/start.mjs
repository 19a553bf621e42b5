// `npm start`: builds the web tier, starts the engine (embedded database unless DATABASE_URL is
// set) and, once it answers /healthz, the web tier on PORT (3000). Ctrl-C stops both.
import { spawn, spawnSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

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

const skipBuild = process.argv.includes("--no-build") || env.SKIP_BUILD === "1";
if (!skipBuild) {
  const built = spawnSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "build"], { stdio: "inherit", env });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const children = [];
let stopping = false;
function run(name, args) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"], env });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`[start] ${name} exited (${signal ?? code}); stopping`);
      stop(code ?? 1);
    }
  });
  return child;
}
function stop(code = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on("exit", r))))).then(() => process.exit(code));
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

run("engine", ["--import", "tsx", "engine/main.ts"]);
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
