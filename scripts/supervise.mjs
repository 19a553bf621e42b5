// Supervision of the exchange's two processes (issue 9): a process that dies is started again
// after a back-off that doubles (1 s … 30 s) and resets once it has stayed up for a minute; each
// restart is logged. Meanwhile the other process keeps serving (the web tier answers its own
// "exchange unreachable" page while the engine is down). An exit code in `fatalCodes` (another
// engine holds the data, a bad configuration) is not retried.
import { spawn } from "node:child_process";

/**
 * @param {{
 *   name: string;
 *   args: string[];
 *   env: NodeJS.ProcessEnv;
 *   log?: (line: string) => void;
 *   backoff?: { firstMs: number; maxMs: number; healthyMs: number };
 *   fatalCodes?: number[];
 *   onGiveUp?: (code: number | null) => void;
 *   stdio?: import("node:child_process").StdioOptions;
 * }} options
 */
export function supervise(options) {
  const { name, args, env, log = (line) => console.error(line), fatalCodes = [], onGiveUp = () => {} } = options;
  const backoff = options.backoff ?? { firstMs: 1_000, maxMs: 30_000, healthyMs: 60_000 };
  let delay = backoff.firstMs;
  let stopping = false;
  let restarts = 0;
  /** @type {import("node:child_process").ChildProcess | null} */
  let child = null;
  /** @type {NodeJS.Timeout | null} */
  let timer = null;

  const start = () => {
    const startedAt = Date.now();
    child = spawn(process.execPath, args, { stdio: options.stdio ?? ["ignore", "inherit", "inherit"], env });
    child.on("exit", (code, signal) => {
      child = null;
      if (stopping) return;
      if (code !== null && fatalCodes.includes(code)) {
        log(`[start] ${name} exited (${code}) and will not be restarted`);
        onGiveUp(code);
        return;
      }
      if (Date.now() - startedAt >= backoff.healthyMs) delay = backoff.firstMs;
      restarts += 1;
      log(`[start] ${name} exited (${signal ?? code}); restart ${restarts} in ${Math.round(delay / 1000)} s`);
      timer = setTimeout(start, delay);
      delay = Math.min(delay * 2, backoff.maxMs);
    });
  };
  start();

  return {
    get restarts() {
      return restarts;
    },
    get pid() {
      return child?.pid ?? null;
    },
    /** Stops the process (SIGTERM) and does not restart it; resolves once it has exited. */
    stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      const running = child;
      if (!running || running.exitCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        running.on("exit", () => resolve(undefined));
        running.kill("SIGTERM");
      });
    },
  };
}
