import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests drive Debian's Chromium (no browser downloads on this network) against the
 * whole exchange: engine on a fresh embedded database plus the built web tier, on test ports.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const ENGINE_PORT = Number(process.env.E2E_ENGINE_PORT ?? 8180);
/** A second exchange in the `hk` variant (decision 005: the return application shown), for the specs that need a variant. */
const HK_PORT = PORT + 10;
const HK_ENGINE_PORT = ENGINE_PORT + 10;
// Set once in the main process; workers inherit it, so every process agrees on one data folder.
process.env.E2E_DATA_DIR ??= `tests/.tmp/e2e-${Date.now()}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  // A flow here is a whole member journey (register, several pages, axe on each) on two shared
  // cores with two browsers, the engine and its simulated market; 30 s left no headroom in CI.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    {
      command: "node scripts/start.mjs",
      url: `http://127.0.0.1:${PORT}/home/index`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(PORT),
        ENGINE_PORT: String(ENGINE_PORT),
        ENGINE_URL: `http://127.0.0.1:${ENGINE_PORT}`,
        DATA_DIR: process.env.E2E_DATA_DIR,
        DATABASE_URL: "",
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
        DEPLOYMENT_VARIANT: "default",
        // Codes may be re-sent after 2 s instead of 60 s, so the suites need not wait.
        CODE_RESEND_SECONDS: "2",
        // Every browser of the suite comes from 127.0.0.1: lift the per-address hourly limit of code sends.
        CODE_SENDS_PER_HOUR: "10000",
        // A trickled request is cut off after 10 s here (2 minutes by default), so a test can see it.
        WEB_REQUEST_TIMEOUT_MS: "10000",
        // A live market, as on a fresh `npm start`: bots quote and trade the demo markets.
        SIMULATOR: "1",
        // The simulated chains mine fast and never re-org here, so a deposit confirms in seconds and a test cannot lose it.
        CHAIN_BLOCK_MS: "bitcoin=400,dogecoin=400,ethereum=200,tron=200,xrp=300,solana=200",
        CHAIN_REORG_PROBABILITY: "0",
      },
    },
    {
      // Started once the first answers (its build is done): no simulator, the hk variant's settings.
      command: "node scripts/start.mjs",
      url: `http://127.0.0.1:${HK_PORT}/home/index`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        START_AFTER_URL: `http://127.0.0.1:${PORT}/home/index`,
        PORT: String(HK_PORT),
        ENGINE_PORT: String(HK_ENGINE_PORT),
        ENGINE_URL: `http://127.0.0.1:${HK_ENGINE_PORT}`,
        DATA_DIR: `${process.env.E2E_DATA_DIR}-hk`,
        DATABASE_URL: "",
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
        DEPLOYMENT_VARIANT: "hk",
        CODE_RESEND_SECONDS: "2",
        CODE_SENDS_PER_HOUR: "10000",
        SIMULATOR: "0",
        DEMO_MEMBER: "0",
        DEV_MAILBOX: "1",
      },
    },
  ],
});
