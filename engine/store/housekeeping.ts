/**
 * Chores that keep the database small (pruning the simulator's history, the embedded database's
 * vacuum and checkpoint), run one after another on a timer, off the order path: a run never
 * overlaps the next, and a failed chore is logged and tried again next time (the exchange does
 * not depend on it). `runOnce` lets the sim bench run them on a simulated clock.
 */
export interface Chore {
  name: string;
  /** `now`: the clock's time (ms) at this run. */
  run(now: number): Promise<unknown>;
}

export interface Housekeeping {
  runOnce(): Promise<Array<{ name: string; ms: number; result: unknown }>>;
  stop(): Promise<void>;
}

/** Every five minutes: the write-ahead log stays within a few segments at the simulator's pace. */
export const HOUSEKEEPING_INTERVAL_MS = 5 * 60_000;

export function startHousekeeping(options: {
  chores: Chore[];
  intervalMs?: number;
  /** Run on a timer (default); false: the caller calls `runOnce`. */
  timer?: boolean;
  now?: () => number;
  log?: { warn: (obj: object, msg: string) => void };
}): Housekeeping {
  const now = options.now ?? Date.now;
  let running: Promise<unknown> | null = null;
  const runOnce = async () => {
    const done: Array<{ name: string; ms: number; result: unknown }> = [];
    for (const chore of options.chores) {
      const started = performance.now();
      try {
        done.push({ name: chore.name, result: await chore.run(now()), ms: performance.now() - started });
      } catch (error) {
        options.log?.warn({ err: (error as Error).message, chore: chore.name }, "housekeeping chore failed");
      }
    }
    return done;
  };
  const timer =
    options.timer === false || !options.chores.length
      ? null
      : setInterval(() => {
          running ??= runOnce().finally(() => {
            running = null;
          });
        }, options.intervalMs ?? HOUSEKEEPING_INTERVAL_MS);
  timer?.unref();
  return {
    runOnce,
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
