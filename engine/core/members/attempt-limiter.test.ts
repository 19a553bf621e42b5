import { describe, expect, it } from "vitest";
import { AttemptLimiter, BackoffLimiter } from "./attempt-limiter";

describe("attempt limits", () => {
  it("acquire checks and records in one step; release gives an attempt back", () => {
    const limit = new AttemptLimiter({ max: 2, windowMs: 1_000 });
    expect(limit.acquire("k", 0)).toEqual({ allowed: true });
    expect(limit.acquire("k", 10)).toEqual({ allowed: true });
    expect(limit.acquire("k", 20)).toEqual({ allowed: false, retryAfterMs: 980 });
    limit.release("k", 10);
    expect(limit.acquire("k", 30)).toEqual({ allowed: true });
    expect(limit.acquire("k", 1_001)).toEqual({ allowed: true }); // the first aged out
    expect(limit.acquire("other", 1_001)).toEqual({ allowed: true });
  });

  it("backs off with doubling waits after the free attempts, capped, and forgets after the window", () => {
    const backoff = new BackoffLimiter({ free: 2, baseDelayMs: 100, maxDelayMs: 300, windowMs: 10_000 });
    let now = 0;
    expect(backoff.acquire("k", now)).toEqual({ allowed: true });
    expect(backoff.acquire("k", now)).toEqual({ allowed: true });
    expect(backoff.acquire("k", now)).toEqual({ allowed: false, retryAfterMs: 100 });
    now += 100;
    expect(backoff.acquire("k", now)).toEqual({ allowed: true }); // third: waited 100
    expect(backoff.acquire("k", now + 150)).toEqual({ allowed: false, retryAfterMs: 50 }); // fourth: 200
    now += 200;
    expect(backoff.acquire("k", now)).toEqual({ allowed: true });
    expect(backoff.acquire("k", now + 299)).toEqual({ allowed: false, retryAfterMs: 1 }); // capped at 300, not 400
    expect(backoff.acquire("k", now + 10_001)).toEqual({ allowed: true });
  });
});
