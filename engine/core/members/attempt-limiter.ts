/**
 * Counts failures per key in a sliding window and says when a key is locked (login per account
 * and per address, verification-code sends). Pure: `now` is passed in. Memory is bounded by
 * pruning keys whose failures have all aged out.
 */
export interface LimitRule {
  /** Failures allowed inside the window. */
  max: number;
  windowMs: number;
}

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

export class AttemptLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly rule: LimitRule) {}

  check(key: string, now: number): LimitVerdict {
    const recent = this.recent(key, now);
    if (recent.length < this.rule.max) return { allowed: true };
    return { allowed: false, retryAfterMs: recent[0]! + this.rule.windowMs - now };
  }

  record(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 50_000) this.prune(now);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.hits.get(key) ?? []).filter((t) => now - t < this.rule.windowMs);
  }

  private prune(now: number) {
    for (const [key, times] of this.hits) if (times.every((t) => now - t >= this.rule.windowMs)) this.hits.delete(key);
  }
}
