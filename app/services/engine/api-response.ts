import { STEP_ONE_LOGIN_MESSAGE, ResultCode } from "#protocol/result-codes";
import { stripHtml } from "~/lib/strip-html";

/** What an engine answer means to the web tier (spec §8 "Response handling"). */
export type ApiOutcome =
  | { kind: "ok"; data: unknown }
  /** 405 or "step 1 login successful": handed to the caller as a rejection, no toast. */
  | { kind: "pass-through"; code: number; message: string }
  /** 401: the member is logged out and sent home. */
  | { kind: "logout"; code: number; reason?: string }
  /** Any other code: an error toast with the server message, or the unknown-error text. */
  | { kind: "error"; code: number; message: string | null; reason?: string };

/**
 * Reads an answer: the code comes from the body's `code`, else from the HTTP status. Any status
 * from 200 to 500 is an answer, not a transport error.
 */
export function interpretResponse(status: number, body: unknown): ApiOutcome {
  const envelope = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const code = typeof envelope.code === "number" ? envelope.code : status;
  const rawMessage = typeof envelope.msg === "string" ? envelope.msg : typeof envelope.message === "string" ? envelope.message : "";
  if (code === ResultCode.OK) return { kind: "ok", data: envelope.data ?? null };
  if (code === ResultCode.PASS_THROUGH || rawMessage === STEP_ONE_LOGIN_MESSAGE) {
    return { kind: "pass-through", code, message: rawMessage };
  }
  const reason = typeof envelope.reason === "string" ? envelope.reason : undefined;
  if (code === ResultCode.UNAUTHORIZED) return { kind: "logout", code, ...(reason ? { reason } : {}) };
  return { kind: "error", code, message: stripHtml(rawMessage), ...(reason ? { reason } : {}) };
}
