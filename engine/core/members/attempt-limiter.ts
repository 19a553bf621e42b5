/**
 * Counts attempts per key in a sliding window (logins per account and address, code sends per
 * address). Pure: `now` is passed in. Memory is bounded by pruning keys whose attempts have all
 * aged out.
 *
 * NOTE: `acquire` checks and records in one synchronous step, before the caller's slow work (the
 * password hash): concurrent attempts cannot all pass a check that none has recorded yet. An
 * attempt that turns out fine is given back with `release`.
 */
export interface LimitRule {
  /** Attempts allowed inside the window. */
  max: number;
  windowMs: number;
}

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** The attempt times of each key, newest last. */
abstract class AttemptLog {
  private readonly hits = new Map<string, number[]>();

  constructor(protected readonly windowMs: number) {}

  /** Whether one more attempt may go ahead now; if so it is recorded at once. */
  acquire(key: string, now: number): LimitVerdict {
    const verdict = this.verdict(this.recent(key, now), now);
    if (verdict.allowed) this.record(key, now);
    return verdict;
  }

  record(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 50_000) this.prune(now);
  }

  /** Gives back an attempt recorded at `at` (it succeeded, or another limit refused it). */
  release(key: string, at: number): void {
    const times = this.hits.get(key);
    const index = times?.lastIndexOf(at) ?? -1;
    if (index >= 0) times!.splice(index, 1);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  check(key: string, now: number): LimitVerdict {
    return this.verdict(this.recent(key, now), now);
  }

  protected abstract verdict(recent: number[], now: number): LimitVerdict;

  private recent(key: string, now: number): number[] {
    return (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
  }

  private prune(now: number) {
    for (const [key, times] of this.hits) if (times.every((t) => now - t >= this.windowMs)) this.hits.delete(key);
  }
}

/** At most `max` attempts per key in the window, then refused until the oldest ages out. */
export class AttemptLimiter extends AttemptLog {
  constructor(private readonly rule: LimitRule) {
    super(rule.windowMs);
  }

  protected verdict(recent: number[], now: number): LimitVerdict {
    if (recent.length < this.rule.max) return { allowed: true };
    return { allowed: false, retryAfterMs: recent[0]! + this.rule.windowMs - now };
  }
}

export interface BackoffRule {
  /** Failures in the window before any wait. */
  free: number;
  /** The first wait; each further failure doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  windowMs: number;
}

/**
 * Slows a key down instead of locking it: after `free` failures in the window, the next attempt
 * waits a delay that doubles with every failure, capped. Used per account across all addresses,
 * so an attacker with many addresses guesses slowly, and the owner is never locked out for long.
 */
export class BackoffLimiter extends AttemptLog {
  constructor(private readonly rule: BackoffRule) {
    super(rule.windowMs);
  }

  protected verdict(recent: number[], now: number): LimitVerdict {
    const over = recent.length - this.rule.free;
    if (over < 0) return { allowed: true };
    const delay = Math.min(this.rule.baseDelayMs * 2 ** over, this.rule.maxDelayMs);
    const wait = recent.at(-1)! + delay - now;
    return wait > 0 ? { allowed: false, retryAfterMs: wait } : { allowed: true };
  }
}
