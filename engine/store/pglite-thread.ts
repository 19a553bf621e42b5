import { Worker } from "node:worker_threads";

/** A statement's result as the dialect reads it. */
export interface EmbeddedResult {
  rows: unknown[];
  affectedRows?: number;
}

/** The embedded database as the Kysely dialect uses it (engine/store/pglite-dialect.ts). */
export interface EmbeddedClient {
  readonly waitReady: Promise<void>;
  readonly closed: boolean;
  /** Runs one or more statements without parameters (the simple protocol); answers the last one's result. */
  exec(sql: string): Promise<EmbeddedResult>;
  /** Runs one statement with parameters (the extended protocol). */
  query(sql: string, params: readonly unknown[]): Promise<EmbeddedResult>;
  /** Follows a `NOTIFY` channel; resolves once listening, with the function that stops. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

type Reply = { id: number; ok: true; result?: EmbeddedResult } | { id: number; ok: false; error: Record<string, unknown> & { message: string } };
type FromThread = { ready: true } | { failed: Record<string, unknown> & { message: string } } | Reply | { notify: number; payload: string };

/** An error as the thread described it: the Postgres fields (`code`, `detail`, `constraint`…) on an Error again. */
function rebuildError(described: Record<string, unknown> & { message: string }): Error {
  const error = new Error(described.message);
  Object.assign(error, described);
  return error;
}

/**
 * The embedded database (PGlite) in a thread of its own (decision 017, step 17): the engine's
 * event loop sends it statements and awaits their results, as it would a Postgres server's, and
 * PGlite's WebAssembly runs on the other core — its start beside the engine's module loading and
 * snapshot restore, its statements beside the requests. The thread is `pglite-thread-worker.mjs`
 * (from the sources) or `pglite-thread.mjs` beside the built engine.
 */
export class PGliteThread implements EmbeddedClient {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (result: EmbeddedResult | undefined) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private nextId = 1;
  private ended: Error | null = null;
  private closing: Promise<void> | null = null;

  /**
   * Starts the thread and its database at `location` (a folder, or `memory://`); await `waitReady`.
   * `onLost` hears of a thread that ended without being closed (a WebAssembly trap, Postgres's
   * own FATAL exit, out of memory): every statement waiting fails, and so does every later one.
   */
  constructor(location: string, startParams: readonly string[], onLost?: (error: Error) => void) {
    this.worker = new Worker(workerUrl(), { workerData: { location, startParams: [...startParams] } });
    this.waitReady = new Promise<void>((resolve, reject) => {
      let ready = false;
      this.worker.on("message", (message: FromThread) => {
        if ("ready" in message) {
          ready = true;
          resolve();
        } else if ("failed" in message) reject(rebuildError(message.failed));
        else if ("notify" in message) this.listeners.get(message.notify)?.(message.payload);
        else this.settle(message);
      });
      // The thread ended: every statement waiting fails, and so does every later one.
      const end = (error: Error) => {
        const first = this.ended === null;
        this.ended ??= error;
        reject(error);
        for (const waiter of this.pending.values()) waiter.reject(error);
        this.pending.clear();
        // Lost once it had started and before it was closed (a failed start is `waitReady`'s to tell).
        if (first && ready && !this.closing) onLost?.(error);
      };
      this.worker.on("error", end);
      this.worker.on("exit", (code) => end(new Error(`the embedded database's thread ended (exit code ${code})`)));
    });
    this.waitReady.catch(() => undefined); // the caller awaits it; an unhandled copy must not end the process
  }

  get closed(): boolean {
    return this.closing !== null || this.ended !== null;
  }

  async exec(sql: string): Promise<EmbeddedResult> {
    return (await this.send({ op: "exec", sql }))!;
  }

  async query(sql: string, params: readonly unknown[]): Promise<EmbeddedResult> {
    return (await this.send({ op: "query", sql, params }))!;
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const id = this.nextId; // the listen request's id names the listener
    this.listeners.set(id, onNotify);
    try {
      await this.send({ op: "listen", channel });
    } catch (error) {
      this.listeners.delete(id);
      throw error;
    }
    return async () => {
      this.listeners.delete(id);
      if (!this.closed) await this.send({ op: "unlisten", listenId: id });
    };
  }

  /** Closes the database (its last statements finish first) and ends the thread; once, however often called. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    if (this.ended) return Promise.resolve();
    const closed = this.post({ op: "close" });
    this.closing = closed.then(
      () => this.worker.terminate().then(() => undefined),
      () => this.worker.terminate().then(() => undefined),
    );
    return this.closing;
  }

  private send(message: Record<string, unknown>): Promise<EmbeddedResult | undefined> {
    if (this.closing) return Promise.reject(new Error("the embedded database is closed"));
    return this.post(message);
  }

  private post(message: Record<string, unknown>): Promise<EmbeddedResult | undefined> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.worker.postMessage({ ...message, id });
      } catch (error) {
        // A value that cannot cross to the thread (a function, a symbol): this statement fails, nothing else.
        this.pending.delete(id);
        reject(error as Error);
      }
    });
  }

  private settle(reply: Reply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(rebuildError(reply.error));
  }
}

/** The thread's module: beside the built engine's bundle, or beside this file in the sources. */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith(".mjs") ? new URL("./pglite-thread.mjs", here) : new URL("./pglite-thread-worker.mjs", here);
}
