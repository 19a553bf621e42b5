import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { refusalError } from "~/lib/forms/form-error";

/** A parsed form (conform's `Submission`, checked or not): what it needs to answer itself. */
interface Replying {
  reply(options?: { hideFields?: string[]; formErrors?: string[] }): SubmissionResult<string[]>;
}

/**
 * "The engine refused this form": the form comes back (without `hideFields`: passwords, codes,
 * files) with the engine's message as its form error — already in the member's language, so it is
 * shown as is — or the generic "unknown" text when the refusal came without one; status 400.
 * `extra` is the rest of the page's answer (e.g. `{ side, key: newIdempotencyKey() }`: the engine
 * keeps its answer under the old key, so the next try needs a new one).
 */
export function engineRefused<Extra extends object = Record<never, never>>(
  submission: Replying,
  refusal: { message?: string | null },
  options: { hideFields?: string[]; extra?: Extra } = {},
) {
  const result = submission.reply({ hideFields: options.hideFields, formErrors: [refusalError(refusal.message)] });
  return data({ ...(options.extra as Extra), result }, { status: 400 });
}
