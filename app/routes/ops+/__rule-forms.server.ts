import type { OpsEngine } from "~/services/ops/ops-engine.server";

/*
 * What the console's rules pages (markets, contracts) read their posts with: each row's forms name
 * their market and send one engine call.
 */

/** A rules form's text as posted: a string of sensible length, or undefined. */
export function textOf(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, 100) : undefined;
}

/** The one engine call of a post, or its refusal as the row's error. */
export async function send<R extends object>(ops: OpsEngine, refusal: R, call: () => Promise<unknown>): Promise<(R & { error: string }) | null> {
  const done = await ops.attempt(call);
  return done.ok ? null : { ...refusal, error: done.error };
}
