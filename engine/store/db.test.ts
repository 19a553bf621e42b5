import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openStore, type Store } from "./db";

const url = process.env.TEST_DATABASE_URL;

/**
 * A dropped Postgres connection is a logged event, never the end of the engine: the pool's
 * connections are ended by the server (`pg_terminate_backend`, as a restart or a fail-over does),
 * and the store answers the next query on a new one.
 */
describe.runIf(url)("a dropped Postgres connection", () => {
  // The store's connections carry a name of their own, so the test ends only those.
  const name = `db-test-${randomBytes(6).toString("hex")}`;
  const warn = vi.fn();
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  let admin: pg.Client;
  let store: Store;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const own = new URL(url!);
    own.searchParams.set("application_name", name);
    store = await openStore({ databaseUrl: own.toString(), dataDir: "unused", log: { warn } });
  });
  afterAll(async () => {
    await store?.close();
    await admin?.end();
  });
  beforeEach(() => {
    warn.mockClear();
    uncaught.length = 0;
    process.on("uncaughtException", onUncaught);
  });
  afterEach(() => {
    process.off("uncaughtException", onUncaught);
  });

  /** Ends every backend of the store's pool; how many it ended. */
  async function terminateStoreBackends(): Promise<number> {
    // Two statements: in one, the server may call pg_terminate_backend before filtering by name.
    const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [name]);
    await admin.query("select pg_terminate_backend(pid) from unnest($1::int[]) as pid", [rows.map((row) => row.pid)]);
    return rows.length;
  }

  it("logs the idle connections it loses and answers on new ones", async () => {
    // Several idle connections in the pool.
    await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`.execute(store.db)));
    const ended = await terminateStoreBackends();
    expect(ended).toBeGreaterThan(0);
    // Each connection is heard of once its socket has closed: logged, not thrown (with no listener, an uncaught error).
    await vi.waitFor(() => expect(warn.mock.calls.length + uncaught.length).toBeGreaterThanOrEqual(ended), { timeout: 5_000 });
    expect(uncaught).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(ended);
    expect(warn).toHaveBeenCalledWith({ err: expect.any(String) }, expect.stringMatching(/database connection dropped/));
    const { rows } = await sql<{ answer: number }>`select 41 + 1 as answer`.execute(store.db);
    expect(rows).toEqual([{ answer: 42 }]);
  });

  it("fails the statement of a transaction whose connection drops, and answers the next one", async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // The connection is checked out, between two statements, when the server ends it.
        expect(await terminateStoreBackends()).toBe(1);
        await vi.waitFor(() => expect(warn.mock.calls.length + uncaught.length).toBeGreaterThan(0), { timeout: 5_000 });
        await sql`select 2`.execute(trx);
      }),
    ).rejects.toThrow();
    expect(uncaught).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(store.db);
    expect(rows).toEqual([{ answer: 42 }]);
  });
});
