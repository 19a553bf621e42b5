// `npm run bench`: the matching core's throughput (and nodejs-order-book's on the same stream),
// the durable order API under load on PGlite and on Postgres, a restart with 1,000,000 resting
// orders, the sim report (the demo markets the simulator makes and the disk they cost), the
// real-time fan-out to 1,000 and 5,000 socket.io clients, then a throwaway exchange (fresh embedded
// database): cold start to first page, the engine's public reads against its /healthz, and
// server-side rendering against a static file. Figures are printed, never asserted.
// Loopback only; every loop is bounded in count and time. Postgres parts use a throwaway database
// on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) and are skipped
// with a note if it does not answer.
//
//   npm run bench                      everything (~6 minutes on 2 cores)
//   npm run bench -- --quick           shorter: 300k matching ops, 5 s of order load, 100k resting orders (10k journal tail), 30 simulated minutes
//   npm run bench -- --only=matching,contracts,margin,loans,staking,subscriptions,orders,restart,sim,fanout,http
//   npm run bench -- sim               the same as --only=sim (names may also be given bare)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";

const args = process.argv.slice(2);
const quick = args.includes("--quick") || process.env.BENCH_QUICK === "1";
const PARTS = ["matching", "contracts", "margin", "loans", "staking", "subscriptions", "orders", "restart", "sim", "fanout", "http"];
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

/** `connections` clients GETting `url` for `seconds` (autocannon): answered requests/s, latency percentiles, failures. */
async function cannon(url, connections, seconds, headers = {}) {
  const r = await autocannon({ url, connections, duration: seconds, headers });
  return { rps: Math.round(r["2xx"] / r.duration), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
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

// 1b. Perpetual contracts in the core: contract orders against spot orders, a mark tick with 100,000 positions against 1,000.
if (only.includes("contracts")) {
  console.log("");
  await runBench("engine/bench/contract-bench.ts");
}

// 1c. Margin in the core: the hourly accrual and a price move's level checks over 100,000 loans against 1,000.
if (only.includes("margin")) {
  console.log("");
  await runBench("engine/bench/margin-bench.ts");
}

// 1d. Crypto loans in the core: the hourly accrual and a price move's LTV checks over 100,000 loans against 1,000.
if (only.includes("loans")) {
  console.log("");
  await runBench("engine/bench/pledge-bench.ts");
}

// 1e. Staking in the core: the daily accrual and a maturity day over 100,000 stakes against 1,000.
if (only.includes("staking")) {
  console.log("");
  await runBench("engine/bench/stake-bench.ts");
}

// 1f. Subscriptions in the core: an allotment over 100,000 subscriptions against 1,000.
if (only.includes("subscriptions")) {
  console.log("");
  await runBench("engine/bench/subscription-bench.ts");
}

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

// 5. Real-time fan-out: trade → push at 1,000 and 5,000 socket.io clients held by a separate process.
if (only.includes("fanout")) {
  console.log("");
  await runBench("engine/bench/fanout-bench.ts");
}

if (!only.includes("http")) process.exit(0);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "exchange-bench-"));

// 6. The whole exchange over HTTP.
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
  const web = `http://127.0.0.1:${WEB}`;
  // Warm up both tiers (the simulator keeps trading the demo markets throughout).
  await load(`${web}/home/index`, { total: 50, concurrency: 4 });
  await load(`${api}/open/getCoinRate`, { total: 200, concurrency: 8 });

  // Issue 13's targets, each a ratio to a ceiling measured in the same run on the same process.
  const seconds = quick ? 3 : 8;
  const engineCeiling = await cannon(`http://127.0.0.1:${ENGINE}/healthz`, 16, seconds);
  const engineRows = [
    ["configuration: getData/site_config, all rows", `${api}/cgform-api/getData/site_config?pageSize=-521&column=id&order=asc`],
    ["configuration: getData/area_code, page of 10", `${api}/cgform-api/getData/area_code?pageSize=10`],
    ["rates: open/getCoinRate", `${api}/open/getCoinRate`],
    ["languages: getData/sys_language", `${api}/cgform-api/getData/sys_language?pageSize=-521&column=id&order=asc`],
    ["symbols: coin/open/getSpotSymbols", `${api}/coin/open/getSpotSymbols`],
    ["tickers: coin/open/market/initData", `${api}/coin/open/market/initData`],
    ["depth: coin/open/getSpotGoods BTC_USDT", `${api}/coin/open/getSpotGoods?symbol=BTC_USDT`],
    ["k-lines: coin/open/get/kline/history BTC_USDT 1m", `${api}/coin/open/get/kline/history?symbol=BTC_USDT&period=1m&limit=300`],
  ];
  const engineFigures = [];
  for (const [name, url] of engineRows) engineFigures.push([name, await cannon(url, 16, seconds)]);

  const staticCeiling = await cannon(`${web}/favicon.ico`, 8, seconds);
  const pageRows = [
    ["/home/index", 15],
    ["/market/main", null],
    ["/user/login", 15],
    ["/exchange/full-screen/BTC_USDT", null],
  ];
  // Rendered: `Cache-Control: no-cache` (a hard reload) skips the page cache, so each request is
  // rendered. Served: what a visitor without a session gets, with a browser's Accept-Encoding
  // (the page cache's compressed copy, rendered at most once a second; decision 038).
  const rendered = { "cache-control": "no-cache" };
  const asVisitor = { "accept-encoding": "gzip, deflate, br" };
  const pageFigures = [];
  for (const [page, p50Target] of pageRows) {
    pageFigures.push([`SSR ${page}`, p50Target, await cannon(`${web}${page}`, 8, seconds, rendered)]);
    pageFigures.push([`served to a visitor ${page}`, p50Target, await cannon(`${web}${page}`, 8, seconds, asVisitor)]);
  }

  console.log("\nThe load generator (autocannon) shares the 2 cores with the engine, the web tier and the simulator: figures are a floor.");
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}`);
  console.log(`cold start (engine migrate+seed on a new PGlite, web up, first page served): ${coldStart} s\n`);
  console.log("Engine public reads, 16 connections (target: each ≥ 0.80 of /healthz):\n");
  console.log("| what | req/s | p50 ms | p99 ms | errors | read/healthz |");
  console.log("|---|---|---|---|---|---|");
  console.log(`| ceiling: engine /healthz | ${engineCeiling.rps} | ${engineCeiling.p50} | ${engineCeiling.p99} | ${engineCeiling.errors} | 1.00 |`);
  for (const [name, r] of engineFigures) {
    const ratio = r.rps / engineCeiling.rps;
    console.log(`| ${name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${ratio.toFixed(2)} ${ratio >= 0.8 ? "(met)" : "(below 0.80)"} |`);
  }
  console.log("\nServer-side rendering, 8 connections (target: each ≥ 0.25 of the same server's static file; p50 ≤ 15 ms for home and login).");
  console.log("SSR: every request rendered (no-cache); served to a visitor: a browser without a session, from the page cache (decision 038).\n");
  console.log("| what | req/s | p50 ms | p99 ms | errors | page/static |");
  console.log("|---|---|---|---|---|---|");
  console.log(`| ceiling: web /favicon.ico | ${staticCeiling.rps} | ${staticCeiling.p50} | ${staticCeiling.p99} | ${staticCeiling.errors} | 1.00 |`);
  for (const [what, p50Target, r] of pageFigures) {
    const ratio = r.rps / staticCeiling.rps;
    const p50 = p50Target === null ? "" : r.p50 <= p50Target ? " (p50 met)" : ` (p50 above ${p50Target} ms)`;
    console.log(`| ${what} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${ratio.toFixed(2)} ${ratio >= 0.25 ? "(met)" : "(below 0.25)"}${p50} |`);
  }
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.on("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
