import { readFileSync } from "node:fs";
import pg from "pg";

/**
 * CPU time spent by each process of a benchmark (Linux `/proc`), so a figure can be split into
 * who paid for it: the engine, Postgres, the load generator. On two shared cores a throughput
 * says little by itself; the microseconds of CPU per request in each process say where to work
 * (decision 017, "where an order's CPU goes"). Elsewhere than Linux every reading is null.
 */

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ: 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/** User + system CPU of one process in microseconds, or null when it cannot be read (gone, not Linux). */
export function processCpuMicros(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The server processes working for one database: its backends, and the WAL writer, checkpointer and background writer every commit pays for. */
async function postgresPids(databaseUrl: string): Promise<number[]> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity where (datname = $1 and pid <> pg_backend_pid()) or backend_type in ('walwriter', 'checkpointer', 'background writer')`,
      [database],
    );
    return rows.rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

export interface CpuSplit {
  /** Microseconds of CPU per unit of work, per process; null where it could not be read. */
  engine: number | null;
  postgres: number | null;
  loadGenerator: number;
}

/**
 * Starts measuring: call the returned function after the load with the number of requests done.
 * `databaseUrl`: the Postgres database the engine serves (none: PGlite, inside the engine).
 */
export async function startCpuMeter(enginePid: number, databaseUrl?: string): Promise<(units: number) => Promise<CpuSplit>> {
  const pids = databaseUrl ? await postgresPids(databaseUrl) : [];
  const sum = (list: number[]) => list.reduce<number | null>((total, pid) => (total === null ? null : (processCpuMicros(pid) ?? 0) + total), 0);
  const engineBefore = processCpuMicros(enginePid);
  const postgresBefore = databaseUrl ? sum(pids) : null;
  const self = process.cpuUsage();
  return async (units) => {
    const engineAfter = processCpuMicros(enginePid);
    const postgresAfter = databaseUrl ? sum(pids) : null;
    const used = process.cpuUsage(self);
    const per = (before: number | null, after: number | null) => (before === null || after === null || units === 0 ? null : (after - before) / units);
    return { engine: per(engineBefore, engineAfter), postgres: per(postgresBefore, postgresAfter), loadGenerator: (used.user + used.system) / units };
  };
}

/** "engine 180 µs, Postgres 185 µs, load generator 40 µs" (Postgres left out on PGlite, where the engine's figure includes it). */
export function describeCpu(split: CpuSplit): string {
  const us = (v: number | null) => (v === null ? "n/a" : `${Math.round(v)} µs`);
  const parts = [`engine ${us(split.engine)}`];
  if (split.postgres !== null) parts.push(`Postgres ${us(split.postgres)}`);
  parts.push(`load generator ${us(split.loadGenerator)}`);
  return parts.join(", ");
}
