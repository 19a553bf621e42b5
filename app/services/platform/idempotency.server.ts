/**
 * A fresh idempotency key for a money-moving form (one per rendered form): a retried post of the
 * same form (a weak connection) carries the same key and the engine acts once. After a refusal
 * the engine keeps its answer under the key, so the form comes back with a new one.
 */
export function newIdempotencyKey(): string {
  return crypto.randomUUID().replaceAll("-", "");
}
