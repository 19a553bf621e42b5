interface Entry<T> {
  value?: T;
  expiresAt: number;
  pending?: Promise<T>;
}

/**
 * A small read-through cache for engine configuration: one load in flight per key, and a stale
 * value keeps being served when a refresh fails (the engine blinking does not blank the site).
 */
export function createCache<T>(ttlMs: () => number) {
  const entries = new Map<string, Entry<T>>();
  return {
    async get(key: string, load: () => Promise<T>): Promise<T> {
      const now = Date.now();
      const entry = entries.get(key) ?? { expiresAt: 0 };
      entries.set(key, entry);
      if (entry.value !== undefined && entry.expiresAt > now) return entry.value;
      entry.pending ??= load()
        .then((value) => {
          entry.value = value;
          entry.expiresAt = Date.now() + ttlMs();
          return value;
        })
        .finally(() => {
          entry.pending = undefined;
        });
      try {
        return await entry.pending;
      } catch (error) {
        if (entry.value !== undefined) return entry.value;
        throw error;
      }
    },
    clear() {
      entries.clear();
    },
  };
}
