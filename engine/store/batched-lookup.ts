/**
 * Gathers look-ups into one query (as DataLoader does): under load, a request no longer costs a
 * round trip of its own, and the answers are as fresh as a query per request (nothing is cached).
 * One query runs at a time; look-ups asked for meanwhile wait and go together in the next one (decision 017, step 17: with the embedded database in its own thread, the event
 * loop turns far more often than a query takes, and a query per turn queued one-key queries on the
 * one connection). `run` gets the distinct keys and answers a map by key; a key it leaves out is
 * not found. A failed query fails every look-up of its batch.
 */
type Waiter<V> = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void };

export class BatchedLookup<V> {
  private pending = new Map<string, Array<Waiter<V>>>();
  private scheduled = false;
  private inFlight = false;

  constructor(
    private readonly run: (keys: string[]) => Promise<Map<string, V>>,
    private readonly maxBatch = 2_000,
  ) {}

  get(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
      this.kick();
    });
  }

  /** Sends the next batch on the next turn of the event loop, unless a query is running. */
  private kick(): void {
    if (this.scheduled || this.inFlight || !this.pending.size) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const part = new Map<string, Array<Waiter<V>>>();
    for (const [key, waiters] of this.pending) {
      if (part.size >= this.maxBatch) break;
      part.set(key, waiters);
    }
    for (const key of part.keys()) this.pending.delete(key);
    this.inFlight = true;
    // Through a promise: a `run` that throws at once, rejects, or answers no map fails its batch
    // (waiters answered already keep their answer).
    Promise.resolve()
      .then(() => this.run([...part.keys()]))
      .then((found) => {
        for (const [key, waiters] of part) for (const w of waiters) w.resolve(found.get(key));
      })
      .catch((error: unknown) => {
        for (const waiters of part.values()) for (const w of waiters) w.reject(error);
      })
      .finally(() => {
        this.inFlight = false;
        this.kick();
      });
  }
}
