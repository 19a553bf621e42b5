import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { EngineLockedError, takeEngineLock } from "./engine-lock";

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
    writeFileSync(path.join(dir, "engine.lock"), `${child.pid}\n${hostname()}\n`);
    await expect(takeEngineLock({ dataDir: dir })).rejects.toThrow(EngineLockedError);
    await expect(takeEngineLock({ dataDir: dir })).rejects.toThrow(/another engine \(pid \d+\) is running/);
    child.kill();
    await new Promise((resolve) => child.on("exit", resolve));
    // Its holder is gone (kill -9, a crash): the lock is taken over.
    const second = await takeEngineLock({ dataDir: dir });
    await second.release();
  });

  it.runIf(process.env.TEST_DATABASE_URL)("holds a Postgres advisory lock: a second engine on the database is refused", async () => {
    const other = mkdtempSync(path.join(tmpdir(), "engine-lock-pg-"));
    const a = await takeEngineLock({ dataDir: dir, databaseUrl: process.env.TEST_DATABASE_URL });
    await expect(takeEngineLock({ dataDir: other, databaseUrl: process.env.TEST_DATABASE_URL })).rejects.toThrow(/advisory lock/);
    await a.release();
    const b = await takeEngineLock({ dataDir: other, databaseUrl: process.env.TEST_DATABASE_URL });
    await b.release();
    rmSync(other, { recursive: true, force: true });
  });
});
