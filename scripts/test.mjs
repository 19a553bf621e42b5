// `npm test`: type check, lint (ESLint, and Prettier's check of the formatting), unit + integration tests (vitest), then end-to-end tests
// (Playwright, Debian's Chromium) against the whole exchange. Prints one closing line: "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const REPORTS = path.resolve("tests/.tmp/reports");
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    console.error(`Chromium is missing at ${CHROMIUM}: run "sudo apt-get update && sudo apt-get install -y chromium", then npm test again.`);
    return false;
  }
  console.log("Chromium is missing: installing Debian's chromium package (running as root)...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const install = update.status === 0 && spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  return Boolean(install && install.status === 0 && existsSync(CHROMIUM));
}

const bin = (name) => path.resolve("node_modules/.bin", name);
const results = { typecheck: false, lint: false, vitest: false, e2e: false };

results.typecheck = run("type check", bin("tsc"), ["--noEmit"]);
// Both run, whatever the first finds: one CI run reports every kind of finding.
const linted = run("lint", bin("eslint"), ["--max-warnings=0", "."]);
const formatted = run("format", bin("prettier"), ["--check", "--log-level=warn", "."]);
results.lint = linted && formatted;
results.vitest = run("unit and integration tests", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(REPORTS, "vitest.json")}`,
]);
if (ensureChromium()) {
  results.e2e = run("end-to-end tests", bin("playwright"), ["test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(REPORTS, "playwright.json"),
  });
}

// One closing line over both runners, after the names of what failed (a CI log keeps only its tail).
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const firstLine = (text) =>
  String(text ?? "")
    .split("\n")
    .find((line) => line.trim() !== "") ?? "";
try {
  const v = JSON.parse(readFileSync(path.join(REPORTS, "vitest.json"), "utf8"));
  passed += v.numPassedTests;
  // A failed test counts once (its describe blocks are "failed suites" too); a file that failed
  // without a failed test (it did not load, a hook threw) counts once below.
  failed += v.numFailedTests;
  skipped += v.numPendingTests + v.numTodoTests;
  for (const suite of v.testResults ?? []) {
    const file = path.relative(process.cwd(), suite.name);
    const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failedTests) failures.push(`vitest ${file} › ${t.fullName}: ${firstLine(t.failureMessages?.[0]).slice(0, 300)}`);
    if (suite.status === "failed" && failedTests.length === 0) {
      failed += 1;
      failures.push(`vitest ${file}: ${firstLine(suite.message).slice(0, 300)}`);
    }
  }
} catch {
  failed += 1;
}
try {
  const p = JSON.parse(readFileSync(path.join(REPORTS, "playwright.json"), "utf8"));
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
  // A describe block's title names its own tests too (a file's suite is titled by its path: left out).
  const walk = (suite, outer) => {
    const titles = suite.title && !suite.title.endsWith(".ts") ? [...outer, suite.title] : outer;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`e2e ${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")}: ${firstLine(error).slice(0, 300)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, titles);
  };
  for (const suite of p.suites ?? []) walk(suite, []);
} catch {
  failed += 1;
}
if (failures.length > 0) {
  console.log("\nfailed:");
  for (const line of failures) console.log(`  ${line}`);
}
if (!results.typecheck) failed += 1;
if (!results.lint) failed += 1;
const ok = results.typecheck && results.lint && results.vitest && results.e2e;
console.log(
  `\ntype check: ${results.typecheck ? "ok" : "FAILED"}; lint: ${results.lint ? "ok" : "FAILED"}; vitest: ${results.vitest ? "ok" : "FAILED"}; e2e: ${results.e2e ? "ok" : "FAILED"}`,
);
console.log(`${passed} passed, ${ok ? failed : Math.max(failed, 1)} failed, ${skipped} skipped`);
process.exit(ok ? 0 : 1);
