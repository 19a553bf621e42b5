import { describe, expect, it } from "vitest";
import { supervise } from "./supervise.mjs";

const fast = { firstMs: 50, maxMs: 200, healthyMs: 10_000 };
const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("process supervision (issue 9)", () => {
  it("restarts a process that dies, with a doubling back-off, and logs each restart", async () => {
    const lines: string[] = [];
    const started = Date.now();
    const handle = supervise({ name: "crasher", args: ["-e", "process.exit(3)"], env: process.env, log: (l) => lines.push(l), backoff: fast, stdio: "ignore" });
    // The fourth restart is scheduled after the third has waited its back-off: 50 + 100 + 200 ms at
    // least have passed (the count grows when a restart is scheduled, before its wait).
    await until(() => handle.restarts >= 4);
    await handle.stop();
    expect(lines[0]).toMatch(/crasher exited \(3\); restart 1 in 0 s/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });

  it("does not restart on a fatal exit code, and says so", async () => {
    const lines: string[] = [];
    let gaveUp: number | null = null;
    const handle = supervise({
      name: "locked",
      args: ["-e", "process.exit(75)"],
      env: process.env,
      log: (l) => lines.push(l),
      backoff: fast,
      fatalCodes: [75],
      onGiveUp: (code) => (gaveUp = code),
      stdio: "ignore",
    });
    await until(() => gaveUp !== null);
    expect(gaveUp).toBe(75);
    expect(handle.restarts).toBe(0);
    expect(lines).toEqual(["[start] locked exited (75) and will not be restarted"]);
  });

  it("stops a running process for good", async () => {
    const handle = supervise({ name: "sleeper", args: ["-e", "setTimeout(() => {}, 60000)"], env: process.env, log: () => {}, backoff: fast, stdio: "ignore" });
    await until(() => handle.pid !== null);
    await handle.stop();
    await new Promise((r) => setTimeout(r, 150));
    expect(handle.restarts).toBe(0);
    expect(handle.pid).toBeNull();
  });
});
