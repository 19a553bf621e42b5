/**
 * Retries tell the truth (issue 9): every duplicate of a request gets the first answer, also while
 * the first is still committing, and a key reused for a different request is refused as such
 * (never answered as if it had done something, never "cannot be placed"). A request is compared by
 * its fingerprint: its fields, with decimals in canonical form (`0.010` is `0.01`).
 */

/** The answer to a request whose key was first used for a different request. */
export const KEY_REUSED = "IDEMPOTENCY_KEY_REUSED" as const;

/** A canonical, order-independent text of a request's fields; decimals lose trailing zeros. */
export function requestFingerprint(fields: Record<string, string | undefined>): string {
  const canonical = (v: string) => (/^\d+\.\d+$/.test(v) ? v.replace(/\.?0+$/, "") : v);
  return JSON.stringify(
    Object.keys(fields)
      .sort()
      .filter((k) => fields[k] !== undefined)
      .map((k) => [k, canonical(fields[k]!)]),
  );
}

/**
 * Requests still running, by key: a duplicate that arrives meanwhile waits for the same answer;
 * one with another fingerprint is refused at once.
 */
export class InFlightRequests<T> {
  private readonly running = new Map<string, { fingerprint: string; answer: Promise<T> }>();

  run(key: string, fingerprint: string, start: () => Promise<T>, reused: () => T): Promise<T> {
    const running = this.running.get(key);
    if (running) return running.fingerprint === fingerprint ? running.answer : Promise.resolve(reused());
    const answer = start().finally(() => this.running.delete(key));
    this.running.set(key, { fingerprint, answer });
    return answer;
  }
}
