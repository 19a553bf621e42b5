/**
 * Gathers the look-ups asked for in one turn of the event loop into one query (as DataLoader
 * does): under load, a request no longer costs a round trip of its own, and the answers are as
 * fresh as a query per request (nothing is cached). `run` gets the distinct keys and answers a
 * map by key; a key it leaves out is not found. A failed query fails every look-up of its batch.
 */
export class BatchedLookup<V> {
  private pending = new Map<string, Array<{ resolve: (value: V | undefined) => void; reject: (error: unknown) => void }>>();
  private scheduled = false;

  constructor(
    private readonly run: (keys: string[]) => Promise<Map<string, V>>,
    private readonly maxBatch = 2_000,
  ) {}

  get(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = this.pending;
    this.pending = new Map();
    const keys = [...all.keys()];
    for (let i = 0; i < keys.length; i += this.maxBatch) {
      const part = keys.slice(i, i + this.maxBatch);
      this.run(part).then(
        (found) => {
          for (const key of part) for (const w of all.get(key)!) w.resolve(found.get(key));
        },
        (error: unknown) => {
          for (const key of part) for (const w of all.get(key)!) w.reject(error);
        },
      );
    }
  }
}
