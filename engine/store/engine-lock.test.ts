import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import net from "node:net";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ADVISORY_KEY, EngineLockedError, takeEngineLock } from "./engine-lock";

/** Another process that takes the lock on `dataDir` as an engine does, and holds it until killed. */
async function engineProcess(dataDir: string) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      "const { takeEngineLock } = await import(process.argv[1]); await takeEngineLock({ dataDir: process.argv[2] }); console.log('locked'); setInterval(() => {}, 60_000);",
      path.resolve(import.meta.dirname, "engine-lock.ts"),
      dataDir,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = (await once(child.stdout, "data")) as [Buffer];
  expect(line.toString()).toBe("locked\n");
  return {
    pid: child.pid!,
    async stop() {
      child.kill();
      await once(child, "exit");
    },
  };
}

/**
 * A TCP relay to Postgres whose clients' side can be cut alone, as a network cut does: the server
 * keeps each session open (and any lock it holds) until it notices.
 */
async function relayTo(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const clients = new Set<net.Socket>();
  const servers = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    // Bytes only: an end or an error on one side is never passed to the other.
    client.on("data", (data) => server.write(data));
    server.on("data", (data) => client.write(data));
    for (const socket of [client, server]) socket.on("error", () => {});
    server.on("close", () => client.destroy());
    clients.add(client);
    servers.add(server);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((relay.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cutClients() {
      for (const client of clients) client.destroy();
      clients.clear();
    },
    async close() {
      for (const socket of [...clients, ...servers]) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}

/** The pids of the sessions a test's connections opened (they carry its `application_name`), ended from another. */
async function terminateSessions(admin: pg.Client, name: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [name]);
  await admin.query("select pg_terminate_backend(pid) from unnest($1::int[]) as pid", [rows.map((row) => row.pid)]);
  return rows.map((row) => row.pid);
}

describe("one engine per data (issue 9)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "engine-lock-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a second engine on a locked data folder, and lets one in after release", async () => {
    const first = await takeEngineLock({ dataDir: dir });
    expect(readFileSync(path.join(dir, "engine.lock"), "utf8")).toMatch(new RegExp(`^${process.pid}\\n`));
    // Another live process holds it: simulate with a child that sleeps.
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    await first.release();
    expect(existsSync(path.join(dir, "engine.lock"))).toBe(false);
    // A lock without the process's start (an older engine's, or no /proc): a live pid is taken for an engine.
    writeFileSync(path.join(dir, "engine.lock"), `${child.pid}\n${hostname()}\n`);
    await expect(takeEngineLock({ dataDir: dir })).rejects.toThrow(EngineLockedError);
    await expect(takeEngineLock({ dataDir: dir })).rejects.toThrow(/another engine \(pid \d+\) is running/);
    child.kill();
    await new Promise((resolve) => child.on("exit", resolve));
    // Its holder is gone (kill -9, a crash): the lock is taken over.
    const second = await takeEngineLock({ dataDir: dir });
    await second.release();
  });

  it.runIf(existsSync("/proc/self/stat"))(
    "takes over a lock whose pid is now another process (a reboot, a restarted container), never a live engine's",
    async () => {
      const lockFile = path.join(dir, "engine.lock");
      const engine = await engineProcess(dir);
      try {
        // A live engine holds it: refused.
        await expect(takeEngineLock({ dataDir: dir })).rejects.toThrow(new RegExp(`another engine \\(pid ${engine.pid}\\) is running`));
        const written = readFileSync(lockFile, "utf8").split("\n");
        expect(written[0]).toBe(String(engine.pid));
        const [boot, start] = written[3]!.split(" ");
        expect(boot).toMatch(/^[0-9a-f-]{36}$/);
        expect(start).toMatch(/^\d+$/);
        // The same live pid, but the lock was written by a process that started at another time
        // (the pid was reused): taken over.
        writeFileSync(lockFile, [written[0], written[1], written[2], `${boot} ${Number(start) + 1}`, ""].join("\n"));
        const afterRestart = await takeEngineLock({ dataDir: dir });
        await afterRestart.release();
        // Or in another boot: taken over.
        writeFileSync(lockFile, [written[0], written[1], written[2], `00000000-0000-0000-0000-000000000000 ${start}`, ""].join("\n"));
        const afterReboot = await takeEngineLock({ dataDir: dir });
        await afterReboot.release();
      } finally {
        await engine.stop();
      }
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)("holds a Postgres advisory lock: a second engine on the database is refused", async () => {
    const other = mkdtempSync(path.join(tmpdir(), "engine-lock-pg-"));
    const a = await takeEngineLock({ dataDir: dir, databaseUrl: process.env.TEST_DATABASE_URL });
    await expect(takeEngineLock({ dataDir: other, databaseUrl: process.env.TEST_DATABASE_URL })).rejects.toThrow(/advisory lock/);
    await a.release();
    const b = await takeEngineLock({ dataDir: other, databaseUrl: process.env.TEST_DATABASE_URL });
    await b.release();
    rmSync(other, { recursive: true, force: true });
  });

  describe.runIf(process.env.TEST_DATABASE_URL)("when the advisory lock's connection drops", () => {
    const name = `engine-lock-test-${randomBytes(6).toString("hex")}`;
    // Built when a test runs: the suite's body runs even when it is skipped.
    const named = () => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.searchParams.set("application_name", name);
      return url.toString();
    };

    it("logs it and takes the lock again: a second engine is still refused", async () => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      // What the journal's commits would have been told while the lock was being taken again.
      let meanwhile: Promise<void> | null | undefined;
      const warn = vi.fn((_: object, msg: string) => {
        if (/connection dropped/.test(msg)) meanwhile = lock.whenHeld();
      });
      const onLost = vi.fn();
      const lock = await takeEngineLock({ dataDir: "memory://", databaseUrl: named(), log: { warn }, onLost });
      expect(lock.whenHeld()).toBeNull();
      try {
        expect(await terminateSessions(admin, name)).toHaveLength(1);
        await vi.waitFor(() => expect(warn).toHaveBeenCalledWith({}, "the engine's advisory lock is held again"), { timeout: 10_000 });
        // From the drop until then, commits waited; now they go out.
        expect(meanwhile).toBeInstanceOf(Promise);
        await meanwhile;
        expect(lock.whenHeld()).toBeNull();
        expect(warn).toHaveBeenCalledWith({ err: expect.any(String) }, expect.stringMatching(/advisory-lock connection dropped/));
        expect(onLost).not.toHaveBeenCalled();
        await expect(takeEngineLock({ dataDir: "memory://", databaseUrl: process.env.TEST_DATABASE_URL })).rejects.toThrow(/advisory lock/);
      } finally {
        await lock.release();
        await admin.end();
      }
      // Released: another engine may take it.
      const next = await takeEngineLock({ dataDir: "memory://", databaseUrl: process.env.TEST_DATABASE_URL });
      await next.release();
    });

    it("after a network cut, ends its own earlier session the server still holds the lock for, and takes the lock again", async () => {
      const relay = await relayTo(process.env.TEST_DATABASE_URL!);
      const warn = vi.fn();
      const onLost = vi.fn();
      const lock = await takeEngineLock({ dataDir: "memory://", databaseUrl: relay.url, log: { warn }, onLost });
      try {
        relay.cutClients();
        await vi.waitFor(() => expect(warn).toHaveBeenCalledWith({}, "the engine's advisory lock is held again"), { timeout: 10_000 });
        // The first try found the lock still held, by the session the server had not seen go.
        expect(warn).toHaveBeenCalledWith({ err: expect.stringMatching(/earlier session .* was ended/), attempt: 1 }, expect.any(String));
        expect(onLost).not.toHaveBeenCalled();
        await expect(takeEngineLock({ dataDir: "memory://", databaseUrl: process.env.TEST_DATABASE_URL })).rejects.toThrow(/advisory lock/);
      } finally {
        await lock.release();
        await relay.close();
      }
    });

    it("stops the engine (onLost) if another engine took the lock meanwhile", async () => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await other.connect();
      const onLost = vi.fn();
      const lock = await takeEngineLock({ dataDir: "memory://", databaseUrl: named(), log: { warn: () => {} }, onLost });
      try {
        // Another engine waits for the lock: the server hands it over as soon as the session ends.
        const otherPid = (await other.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
        const waiting = other.query("select pg_advisory_lock($1)", [ADVISORY_KEY]);
        await vi.waitFor(async () => {
          const { rows } = await admin.query("select 1 from pg_locks where locktype = 'advisory' and not granted and pid = $1", [otherPid]);
          expect(rows).toHaveLength(1);
        });
        expect(await terminateSessions(admin, name)).toHaveLength(1);
        await waiting;
        await vi.waitFor(() => expect(onLost).toHaveBeenCalledWith(expect.any(EngineLockedError)), { timeout: 10_000 });
        // The other engine holds it: this one's commits wait for good (onLost stops the engine).
        const held = lock.whenHeld();
        expect(held).toBeInstanceOf(Promise);
        expect(await Promise.race([held!.then(() => "held"), new Promise((r) => setTimeout(() => r("waiting"), 200))])).toBe("waiting");
      } finally {
        await lock.release();
        await other.end();
        await admin.end();
      }
    });
  });
});
