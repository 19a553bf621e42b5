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
}

/** The advisory lock's key: the same for every engine of one database. */
const ADVISORY_KEY = 7_240_911;

export async function takeEngineLock(options: { dataDir: string; databaseUrl?: string }): Promise<EngineLock> {
  const releaseFile = options.dataDir.startsWith("memory://") ? () => {} : lockFolder(options.dataDir);
  let client: pg.Client | null = null;
  if (options.databaseUrl) {
    client = new pg.Client({ connectionString: options.databaseUrl });
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [ADVISORY_KEY]);
      if (!rows[0]?.locked) throw new EngineLockedError("another engine is running on this database (it holds the engine's advisory lock); stop it first");
    } catch (error) {
      await client.end().catch(() => {});
      releaseFile();
      throw error;
    }
  }
  return {
    async release() {
      if (client) await client.end().catch(() => {}); // ending the session releases the advisory lock
      releaseFile();
    },
  };
}

/** Lock files this process holds (a lock file naming our pid that is not here is an earlier life's). */
const held = new Set<string>();

/** Creates `engine.lock` exclusively; a lock left by a process that is gone is taken over. */
function lockFolder(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.resolve(dataDir, "engine.lock");
  if (held.has(file)) throw new EngineLockedError(`an engine of this process is running on ${dataDir}`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, `${process.pid}\n${hostname()}\n${new Date().toISOString()}\n`);
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
      const [pid, host] = readFileSync(file, "utf8").split("\n");
      const holder = Number(pid);
      if (host === hostname() && holder !== process.pid && isAlive(holder)) {
        throw new EngineLockedError(`another engine (pid ${holder}) is running on ${dataDir}; stop it first, or delete ${file} if no engine runs`);
      }
      // Left by an engine that died (kill -9, a crash; in a container a restarted engine may get
      // the same pid): take it over.
      unlinkSync(file);
    }
  }
  throw new EngineLockedError(`could not lock ${dataDir}`);
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
