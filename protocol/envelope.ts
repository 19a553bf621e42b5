import * as z from "zod";
import type { RefusalReason } from "./refusal-reasons";
import { ResultCode } from "./result-codes";

/**
 * The one response shape of every engine answer (spec §7/§8): `{ code, success, msg, data }`.
 * A refusal adds `reason`, a stable code from `protocol/refusal-reasons.ts` that clients match
 * instead of `msg` (which is worded in the caller's language).
 */
export interface Envelope<T> {
  code: number;
  success: boolean;
  msg: string;
  data: T | null;
  reason?: RefusalReason;
}

export const SUCCESS_MESSAGE = "success";

/** A successful envelope around `data`. */
export function okEnvelope<T>(data: T, msg = SUCCESS_MESSAGE): Envelope<T> {
  return { code: ResultCode.OK, success: true, msg, data };
}

/** A failed envelope: `data` is always null so nothing half-done leaks to the client. */
export function errorEnvelope(code: number, msg: string, reason?: RefusalReason): Envelope<null> {
  return reason === undefined ? { code, success: false, msg, data: null } : { code, success: false, msg, data: null, reason };
}

/** Schema of an envelope whose `data` has the given shape (used by the web client to check answers). */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.number().int(),
    success: z.boolean(),
    msg: z.string(),
    data: data.nullable(),
    /** A refusal's reason code (a text, so a code added later does not break an older client). */
    reason: z.string().optional(),
  });
}

/** Loose envelope schema: any data. The client reads the code first, then checks data per endpoint. */
export const anyEnvelopeSchema = z.object({
  code: z.number().int().optional(),
  success: z.boolean().optional(),
  msg: z.string().optional(),
  data: z.unknown().optional(),
  reason: z.string().optional(),
});

/**
 * Turns zod issues into one message that names the fields, e.g. `pageSize: expected an integer`.
 * Shared by the engine (400 answers) and the web tier (form errors that reach the API). A message
 * may be a text key (`validation.symbol`, protocol/fields.ts): `text` turns it into words in the
 * reader's language and leaves other messages as they are (the engine passes its own texts).
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], text: (message: string) => string = (message) => message): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const field = issue.path.map(String).join(".");
      const message = text(issue.message);
      return field ? `${field}: ${message}` : message;
    })
    .join("; ");
}
