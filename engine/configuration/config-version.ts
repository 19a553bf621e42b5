import { sql } from "kysely";
import type { Store } from "../store/db";

/** The channel the configuration tables' trigger notifies on (migration 027). */
export const CONFIG_CHANNEL = "config_changed";

/** How often the counter is read in case a notification was missed (a dropped listener connection). */
const BACKSTOP_MS = 5_000;

/**
 * Tells the engine's in-memory configuration answers when the configuration tables change
 * (issue 13; docs/decisions/035-configuration-from-memory.md). Every write to one of them raises
 * `config_version` and notifies `config_changed` in the writing transaction (migration 027), so a
 * change by the engine, another process or an operator's SQL is heard once it commits. The counter
 * is also read every few seconds: a notification lost with a dropped connection is caught there,
 * and a dropped listener is listened again.
 *
 * `generation` counts the changes this process heard: an answer computed from the database is kept
 * only if no change was heard while it was computed, so a read that raced a change is never kept.
 */
export class ConfigVersion {
  private generation = 0;
  /** The counter as the backstop last read it (a notification does not move it: the backstop then clears once more). */
  private seen: string | null = null;
  private readonly listeners = new Set<() => void>();
  private stopListening: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly backstopMs = BACKSTOP_MS,
  ) {}

  /** A version already started (tests; the engine starts its own when the server is ready). */
  static async start(store: Store, backstopMs = BACKSTOP_MS): Promise<ConfigVersion> {
    const version = new ConfigVersion(store, backstopMs);
    await version.start();
    return version;
  }

  /** Reads the counter, listens for changes and starts the backstop. Call outside any transaction. */
  async start(): Promise<void> {
    this.seen = await this.read();
    await this.listen();
    this.timer = setInterval(() => void this.tick(), this.backstopMs);
    this.timer.unref();
  }

  /** The changes heard so far; compare before and after computing an answer. */
  get current(): number {
    return this.generation;
  }

  /** Runs `listener` on each change heard. */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** Reads the counter and treats a difference as a change (the backstop). */
  async check(): Promise<void> {
    const now = await this.read().catch(() => null);
    if (now !== null && now !== this.seen) {
      this.seen = now;
      this.changed();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.stopListening?.().catch(() => undefined);
    this.stopListening = null;
  }

  private async listen(): Promise<void> {
    try {
      this.stopListening = await this.store.listen(
        CONFIG_CHANNEL,
        () => this.changed(),
        () => {
          this.stopListening = null;
        },
      );
    } catch {
      this.stopListening = null; // the next tick tries again
    }
  }

  private async tick(): Promise<void> {
    if (!this.stopListening && !this.stopped) await this.listen();
    await this.check();
  }

  private changed(): void {
    this.generation++;
    for (const listener of this.listeners) listener();
  }

  private async read(): Promise<string> {
    const { rows } = await sql<{ version: string }>`select version from config_version where id = 1`.execute(this.store.db);
    return String(rows[0]?.version ?? "0");
  }
}
