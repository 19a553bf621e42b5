import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { builtEngineArgs } from "./built-engine";

/**
 * An engine in a process of its own (the built `engine/main.ts`, as `npm start` runs it, on the embedded database in `dataDir`), for
 * the tests that kill it with SIGKILL and start it again on the same data (crash safety).
 */
export interface EngineProcess {
  child: ChildProcess;
  base: string;
  /** Resolves when the process has exited, with the signal that ended it (null: it exited by itself). */
  exited: Promise<NodeJS.Signals | null>;
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Spawns the engine and waits until `/healthz` answers (or the process dies, which throws). */
export async function spawnEngine(options: { dataDir: string; port: number; env?: Record<string, string> }): Promise<EngineProcess> {
  const child = spawn(process.execPath, builtEngineArgs(), {
    env: {
      ...process.env,
      DATA_DIR: options.dataDir,
      ENGINE_PORT: String(options.port),
      DATABASE_URL: "",
      LOG_LEVEL: "silent",
      ...options.env,
    },
    stdio: "ignore",
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  const base = `http://127.0.0.1:${options.port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the engine exited while starting (${child.exitCode ?? child.signalCode})`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, exited };
    } catch {
      // starting
    }
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error("the engine did not start");
}

/** kill -9, and wait until the process is gone. */
export async function killEngine(engine: EngineProcess): Promise<void> {
  if (engine.child.exitCode === null && engine.child.signalCode === null) engine.child.kill("SIGKILL");
  await engine.exited;
}
