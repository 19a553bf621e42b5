import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { loadVariant } from "../../variants/index";
import { createMembers as createMemberRows, type NewMember } from "../members/new-member";
import { openSessions } from "../members/sessions";
import { seedDemoMarkets } from "../sim/demo-markets";
import { openStore, type Store } from "../store/db";
import { migrateToLatest } from "../store/migrate";
import type { Database } from "../store/schema";
import { seedConfiguration } from "../store/seed/seed";
import { builtEngineArgs } from "../testing/built-engine";

/**
 * Shared by the benchmarks: a throwaway database (a fresh PGlite folder, or a Postgres database
 * made for the run and dropped after it), members with open sessions made in bulk,
 * and the engine started as its own process (the built `engine/main.ts`, as `npm start` runs it) so that the load generator does
 * not share its event loop. Loopback only.
 */
export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  kind: "pglite" | "postgres";
  /** DATA_DIR of the engine (PGlite keeps its files here; also the admin token's folder). */
  dataDir: string;
  databaseUrl?: string;
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

/** A fresh database of `kind`, migrated and seeded with the configuration and the demo markets; null if Postgres does not answer. */
export async function benchDatabase(kind: "pglite" | "postgres"): Promise<BenchDatabase | null> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `exchange-bench-${kind}-`));
  let databaseUrl: string | undefined;
  let drop = async () => {};
  if (kind === "postgres") {
    const name = `bench_${Date.now()}_${randomBytes(3).toString("hex")}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2_000 });
    try {
      await admin.connect();
      await admin.query(`create database ${name}`);
    } catch {
      rmSync(dataDir, { recursive: true, force: true });
      await admin.end().catch(() => {});
      return null;
    }
    await admin.end();
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const open = () => openStore({ databaseUrl, dataDir });
  const store = await open();
  await migrateToLatest(store.db as never);
  await seedConfiguration(store.db, loadVariant("default"));
  await seedDemoMarkets(store.db);
  await store.close();
  return {
    kind,
    dataDir,
    databaseUrl,
    open,
    async dispose() {
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface BenchMember {
  id: string;
  uid: string;
  token: string;
}

/**
 * Members with one live device session each, made in batches: they never log in (no password,
 * so the one unknown-password hash is shared and no argon2 runs per member); their sessions are
 * opened as a login opens one (`openSessions`), a batch at a time.
 */
export async function createMembers(db: Kysely<Database>, count: number, prefix = "bench"): Promise<BenchMember[]> {
  const now = Date.now();
  const members: BenchMember[] = [];
  // Batches of 100: opening a batch's sessions revokes earlier ones by `(member, device) in (…)`,
  // and a list of 500 pairs against a table that already has rows kept PGlite's planner busy for
  // minutes (the restart bench never got past seeding its 1,000 members on PGlite).
  for (let start = 0; start < count; start += 100) {
    const size = Math.min(100, count - start);
    const drafts = Array.from({ length: size }, (_, i): NewMember => {
      const n = start + i;
      return {
        account: { email: `${prefix}-${n}@bench.example` },
        password: null,
        uid: String(90_000_000 + n),
        inviteCode: `B${n.toString(36).padStart(7, "0")}`,
      };
    });
    const inserted = await createMemberRows(db, drafts, now);
    const tokens = await openSessions(
      db,
      inserted.map((m) => ({ memberId: String(m.id), deviceId: `bench-device-${m.uid}`, userAgent: "bench", ip: "127.0.0.1" })),
      now,
    );
    inserted.forEach((m, i) => members.push({ id: String(m.id), uid: m.uid, token: tokens[i]!.access }));
  }
  return members;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface EngineProcess {
  url: string;
  adminToken: string;
  /** Milliseconds from spawning the process to the first healthy answer. */
  startMs: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the built engine (`engine/main.ts`) on the database (no simulated liquidity) and waits until /healthz answers. */
export async function startEngineProcess(
  database: BenchDatabase,
  options: { nodeArgs?: string[]; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<EngineProcess> {
  const port = await freePort();
  const adminToken = randomBytes(24).toString("base64url");
  const url = `http://127.0.0.1:${port}`;
  // Built before the clock starts: the figure is the engine's start, not esbuild's.
  const engineArgs = builtEngineArgs();
  const t0 = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...engineArgs], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      ENGINE_PORT: String(port),
      ENGINE_HOST: "127.0.0.1",
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.databaseUrl ?? "",
      SIMULATOR: "0",
      // A throwaway exchange that sends no e-mail: say so, or production mode refuses to start.
      DEV_MAILBOX: "1",
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      ...options.env,
    },
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (exited) throw new Error("the engine exited before it served");
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("the engine did not serve in time");
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    await sleep(20);
  }
  const startMs = performance.now() - t0;
  return {
    url,
    adminToken,
    startMs,
    child,
    async stop() {
      if (!exited) child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exit;
      clearTimeout(killer);
    },
  };
}

/** Rows of a table (for the checks after a run). */
export async function countRows(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const row = await sql<{ n: string }>`select count(*)::text as n from ${sql.table(table)}`.execute(db);
  return Number(row.rows[0]!.n);
}

export const fmt = (n: number) => Math.round(n).toLocaleString("en");
