import { mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * One engine per data (issue 9): a second engine on the same data folder used to migrate and
 * restore the live database before failing on the busy port, and could crash PGlite. Before it
 * touches anything the engine takes a lock file in `DATA_DIR` (which holds the embedded database,
 * the admin token and the uploads) and, on Postgres, a session advisory lock held on its own
 * connection for as long as it runs.
 */
export class EngineLockedError extends Error {}

export interface EngineLock {
  release(): Promise<void>;
  /**
   * Null while the engine holds its lock. While the advisory lock is being taken again after its
   * connection dropped (another engine could take it in that window), a promise that resolves once
   * it is held again, and never if another engine took it (`onLost`). The journal's commits wait
   * for it (`CommitGate`, engine/journal/group-commit.ts). Always null without a database lock.
   */
  whenHeld(): Promise<void> | null;
}

export interface EngineLockOptions {
  dataDir: string;
  databaseUrl?: string;
  /** Where the advisory lock's dropped connection is logged (the engine's logger, pino's shape); the console by default. */
  log?: { warn(obj: object, msg: string): void };
  /**
   * The advisory lock was lost for good: its connection dropped and another engine took the lock
   * before this one could take it again. The engine must stop (start-engine.ts exits 75).
   */
  onLost?: (error: EngineLockedError) => void;
}

/** The advisory lock's key: the same for every engine of one database. */
export const ADVISORY_KEY = 7_240_911;

/** Waits between attempts to take the advisory lock again after its connection dropped. */
const RETAKE_DELAYS_MS = [0, 500, 1_000, 2_000, 5_000];

/** Takes the data folder's lock file, then (on Postgres) the advisory lock; `EngineLockedError` if another engine holds either. */
export async function takeEngineLock(options: EngineLockOptions): Promise<EngineLock> {
  const releaseFile = options.dataDir.startsWith("memory://") ? () => {} : lockFolder(options.dataDir);
  let database: DatabaseLock = { release: async () => {}, whenHeld: () => null };
  if (options.databaseUrl) {
    try {
      database = await lockDatabase(options.databaseUrl, options);
    } catch (error) {
      releaseFile();
      throw error;
    }
  }
  return {
    async release() {
      await database.release();
      releaseFile();
    },
    whenHeld: () => database.whenHeld(),
  };
}

type DatabaseLock = Pick<EngineLock, "release" | "whenHeld">;

/**
 * Holds the advisory lock on a connection of its own; the function it gives releases it.
 *
 * If that connection drops (a restarted server, `pg_terminate_backend`, a network cut), the
 * session ends and the server releases the lock with it. The engine does not stop for that: the
 * drop is logged and the lock taken again on a new connection, retried until the server answers.
 * From the drop until the lock is held again `whenHeld` answers a promise and the journal writes
 * nothing (its commits wait; not back within 30 s, the server down, the engine stops as on a failed
 * commit: engine/journal/group-commit.ts). If another engine took the lock meanwhile, two engines
 * would write one database: this one stops (`onLost`; start-engine.ts exits 75), the other keeps
 * it. After a network cut the server may not have noticed yet that the old session is gone, and
 * still holds the lock for it: that session (known by its backend's pid and start time) is ended,
 * and the lock taken again.
 */
async function lockDatabase(databaseUrl: string, options: EngineLockOptions): Promise<DatabaseLock> {
  const log = options.log ?? { warn: (obj: object, msg: string) => console.warn(`[engine] ${msg}`, obj) };
  let released = false;
  let current: pg.Client | null = null;
  /** The server's side of the last session that held the lock: its backend's pid and start time. */
  let lastSession: { pid: number; started: string } | null = null;
  let retry: NodeJS.Timeout | null = null;
  /** While the lock is not held (from a drop until it is taken again): resolved once it is. */
  let regained: { promise: Promise<void>; resolve: () => void } | null = null;

  /** A new session holding the lock, or null when another one holds it (ending this engine's earlier one if that is it). */
  const connectLocked = async (): Promise<pg.Client | null> => {
    const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    // Until this session is the lock's, a drop is only the failure of the statement that meets it.
    client.on("error", () => {});
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean; pid: number; started: string }>(
        `select pg_try_advisory_lock($1) as locked, pg_backend_pid() as pid,
           (select backend_start::text from pg_stat_activity where pid = pg_backend_pid()) as started`,
        [ADVISORY_KEY],
      );
      if (rows[0]?.locked) {
        lastSession = { pid: rows[0].pid, started: rows[0].started };
        return client;
      }
      if (lastSession) {
        // Still there: the server has not seen the cut. It is this engine's: end it and try again.
        const { rows: ended } = await client.query<{ ended: boolean }>(
          "select pg_terminate_backend(pid) as ended from pg_stat_activity where pid = $1 and backend_start = $2::timestamptz",
          [lastSession.pid, lastSession.started],
        );
        // Only a session really ended frees the lock; one the server would not end (no privilege)
        // is not this engine's to wait for: the lock counts as another's, and this engine stops.
        if (ended[0]?.ended === true) throw new Error(`the lock's earlier session (backend ${lastSession.pid}) is still open on the server; it was ended`);
        if (ended.length > 0) lastSession = null;
      }
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    await client.end().catch(() => {});
    return null;
  };

  const hold = (client: pg.Client) => {
    current = client;
    regained?.resolve();
    regained = null;
    let dropped = false;
    const drop = (error?: Error) => {
      if (dropped || released || current !== client) return;
      dropped = true;
      current = null;
      // From now until the lock is held again, another engine may hold it: no commit goes out.
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      regained = { promise, resolve };
      log.warn({ err: error?.message ?? "connection ended" }, "the engine's advisory-lock connection dropped; taking the lock again");
      retake(0);
    };
    client.on("error", drop);
    client.on("end", () => drop());
  };

  const retake = (attempt: number) => {
    retry = setTimeout(
      async () => {
        retry = null;
        if (released) return;
        let client: pg.Client | null;
        try {
          client = await connectLocked();
        } catch (error) {
          if (released) return;
          log.warn({ err: (error as Error).message, attempt: attempt + 1 }, "the engine's advisory lock could not be taken again yet; retrying");
          retake(attempt + 1);
          return;
        }
        if (released) {
          await client?.end().catch(() => {});
          return;
        }
        if (!client) {
          const lost = new EngineLockedError("another engine took this database's advisory lock while this engine's connection was down; this engine stops");
          log.warn({ err: lost.message }, "the engine's advisory lock is lost");
          options.onLost?.(lost);
          return;
        }
        hold(client);
        log.warn({}, "the engine's advisory lock is held again");
      },
      RETAKE_DELAYS_MS[Math.min(attempt, RETAKE_DELAYS_MS.length - 1)],
    );
  };

  const first = await connectLocked();
  if (!first) throw new EngineLockedError("another engine is running on this database (it holds the engine's advisory lock); stop it first");
  hold(first);
  return {
    async release() {
      released = true;
      if (retry) clearTimeout(retry);
      const client = current;
      current = null;
      if (client) await client.end().catch(() => {}); // ending the session releases the advisory lock
    },
    whenHeld: () => regained?.promise ?? null,
  };
}

/** Lock files this process holds (a lock file naming our pid that is not here is an earlier life's). */
const held = new Set<string>();

/**
 * Creates `engine.lock` exclusively; a lock left by a process that is gone is taken over. The lock
 * names the engine's pid, host, time and, on Linux, which process that pid was (`processIdentity`):
 * after a crash and a reboot, or in a restarted container, the pid may now be another live process,
 * and a lock that named only the pid would stop every later start (exit 75, not restarted).
 */
function lockFolder(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.resolve(dataDir, "engine.lock");
  if (held.has(file)) throw new EngineLockedError(`an engine of this process is running on ${dataDir}`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, `${process.pid}\n${hostname()}\n${new Date().toISOString()}\n${processIdentity(process.pid) ?? ""}\n`);
      closeSync(fd);
      held.add(file);
      return () => {
        held.delete(file);
        try {
          if (readFileSync(file, "utf8").startsWith(`${process.pid}\n`)) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const [pid, host, , identity] = readFileSync(file, "utf8").split("\n");
      const holder = Number(pid);
      if (host === hostname() && holder !== process.pid && isAlive(holder) && isSameProcess(holder, identity || null)) {
        throw new EngineLockedError(`another engine (pid ${holder}) is running on ${dataDir}; stop it first, or delete ${file} if no engine runs`);
      }
      // Left by an engine that died (kill -9, a crash), or its pid is now another process's (a
      // reboot, a restarted container): take it over.
      unlinkSync(file);
    }
  }
  throw new EngineLockedError(`could not lock ${dataDir}`);
}

/**
 * Which process a pid is, beyond its number (Linux): the boot (`/proc/sys/kernel/random/boot_id`)
 * and the process's start time in clock ticks since that boot (`/proc/<pid>/stat`, field 22). A
 * pid reused after a reboot or a restart has another. Null where `/proc` cannot tell (another
 * system, `/proc` mounted with `hidepid`).
 */
function processIdentity(pid: number): string | null {
  const boot = bootId();
  const start = startTime(pid);
  return boot && start ? `${boot} ${start}` : null;
}

/**
 * Whether the live process `pid` is the one that wrote a lock naming `identity`. Without an identity
 * on either side (a lock by an older engine, no `/proc`), a live pid is taken for the engine, as
 * before: refusing a start is safe, two engines on one data are not.
 */
function isSameProcess(pid: number, identity: string | null): boolean {
  if (!identity) return true;
  const [bootWas, startWas] = identity.split(" ");
  const boot = bootId();
  if (boot && boot !== bootWas) return false; // written before a reboot: every pid of that boot is gone
  const start = startTime(pid);
  return start === null || start === startWas;
}

function bootId(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
  } catch {
    return null;
  }
}

function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // `pid (comm) state ppid …`: the name may hold spaces and parentheses, so count from its last `)`;
    // the fields after it start at field 3, so the start time (22) is the 20th.
    const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return start && /^\d+$/.test(start) ? start : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
