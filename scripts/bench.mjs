// `npm run bench`: the matching core's throughput (and nodejs-order-book's on the same stream),
// the durable order API under load on PGlite and on Postgres, a restart with 1,000,000 resting
// orders, then a throwaway exchange (fresh embedded database): cold start to first page, engine
// API throughput and latency, server-side rendering; and the sim report: the demo markets the
// simulator makes and the disk they cost. Figures are printed, never asserted.
// Loopback only; every loop is bounded in count and time. Postgres parts use a throwaway database
// on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) and are skipped
// with a note if it does not answer.
//
//   npm run bench                      everything (~6 minutes on 2 cores)
//   npm run bench -- --quick           shorter: 300k matching ops, 5 s of order load, 100k resting orders (10k journal tail), 30 simulated minutes
//   npm run bench -- --only=matching,orders,restart,http,sim
//   npm run bench -- sim               the same as --only=sim (names may also be given bare)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

const args = process.argv.slice(2);
const quick = args.includes("--quick") || process.env.BENCH_QUICK === "1";
const PARTS = ["matching", "orders", "restart", "sim", "http"];
const named = [
  ...(args
    .find((a) => a.startsWith("--only="))
    ?.slice("--only=".length)
    .split(",") ?? []),
  ...args.filter((a) => !a.startsWith("--")),
];
const unknown = named.filter((name) => !PARTS.includes(name));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(", ")}; the parts are ${PARTS.join(", ")}`);
  process.exit(2);
}
const only = named.length ? named : PARTS;
const quickEnv = quick ? { BENCH_OPS: "300000", BENCH_SECONDS: "5", BENCH_RESTING: "100000", BENCH_TAIL: "10000", BENCH_QUICK: "1" } : {};

/** Runs one TypeScript bench in its own process (figures go straight to the terminal). */
function runBench(file, benchArgs = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", file, ...benchArgs], { stdio: "inherit", env: { ...process.env, ...quickEnv } });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited ${code}`))));
  });
}

const WEB = 3200;
const ENGINE = 8280;

async function waitFor(url, deadlineMs) {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {}
    await sleep(50);
  }
  return false;
}

/** Sends `total` GETs with `concurrency` in flight; returns requests/s and latency percentiles. */
async function load(url, { total, concurrency, maxMs = 30_000 }) {
  const latencies = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  async function worker() {
    while (next < total && performance.now() - started < maxMs) {
      next++;
      const t0 = performance.now();
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        if (!res.ok) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
  return { requests: latencies.length, rps: Math.round(latencies.length / seconds), p50: pct(50), p99: pct(99), errors };
}

console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}${quick ? "; quick run" : ""}\n`);

// 1. The matching core alone (pure, in process), against nodejs-order-book on the same stream.
if (only.includes("matching")) await runBench("engine/bench/matching-bench.ts");

// 2. The durable order API: real engine process, session tokens, group commit; PGlite, then Postgres.
if (only.includes("orders")) {
  console.log("");
  await runBench("engine/bench/order-api-bench.ts", ["pglite", "postgres"]);
}

// 3. Restart: the engine's restore of a million resting orders with their holds and balances.
if (only.includes("restart")) {
  console.log("");
  await runBench("engine/bench/restart-bench.ts", ["pglite", "postgres"]);
}

// 4. The demo market simulator on a simulated clock: walk, book, prints, history join, disk growth.
if (only.includes("sim")) {
  console.log("");
  await runBench("engine/bench/sim-bench.ts");
}

if (!only.includes("http")) process.exit(0);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "exchange-bench-"));

// 5. The whole exchange over HTTP.
const t0 = performance.now();
const child = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env,
    PORT: String(WEB),
    ENGINE_PORT: String(ENGINE),
    ENGINE_URL: `http://127.0.0.1:${ENGINE}`,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    LOG_LEVEL: "warn",
  },
});
try {
  if (!(await waitFor(`http://127.0.0.1:${WEB}/home/index`, 90_000))) throw new Error("the exchange did not start within 90 s (run `npm run build` first)");
  const coldStart = ((performance.now() - t0) / 1000).toFixed(2);
  const api = `http://127.0.0.1:${ENGINE}/api/mjkj-web`;
  // Warm up both tiers.
  await load(`http://127.0.0.1:${WEB}/home/index`, { total: 50, concurrency: 4 });
  await load(`${api}/open/getCoinRate`, { total: 200, concurrency: 8 });

  const rows = [
    ["engine GET open/getCoinRate", await load(`${api}/open/getCoinRate`, { total: 5000, concurrency: 32 })],
    ["engine GET getData/area_code page of 10", await load(`${api}/cgform-api/getData/area_code?pageSize=10`, { total: 3000, concurrency: 32 })],
    ["web SSR /home/index, 1 at a time", await load(`http://127.0.0.1:${WEB}/home/index`, { total: 300, concurrency: 1 })],
    ["web SSR /home/index, 8 in flight", await load(`http://127.0.0.1:${WEB}/home/index`, { total: 1000, concurrency: 8 })],
    ["web SSR /rate/index, 8 in flight", await load(`http://127.0.0.1:${WEB}/rate/index`, { total: 1000, concurrency: 8 })],
  ];
  console.log("\nThe load generator shares the 2 cores with the engine and the web tier: figures are a floor.");
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}`);
  console.log(`cold start (engine migrate+seed on a new PGlite, web up, first page served): ${coldStart} s\n`);
  console.log("| what | requests | req/s | p50 ms | p99 ms | errors |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, r] of rows) console.log(`| ${name} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} |`);
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.on("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
