import { redirect } from "@remix-run/node";
import type { Endpoint } from "#protocol/endpoint";
import type { LanguageCode } from "#protocol/languages";
import { callEndpoint, EngineRefusal, EngineUnreachable } from "./api.server";
import { clientOf, logOutHeaders } from "../account/auth.server";
import { unreachableResponse } from "../platform/errors.server";
import { toastHeader } from "../platform/toast.server";
import type { EndpointInput, EndpointOutput, InputArgs } from "./endpoint-input";

/** One engine call of this request, typed by its endpoint's schemas. */
export type EngineCall = <E extends Endpoint>(endpoint: E, ...input: InputArgs<E>) => Promise<EndpointOutput<E>>;

/** What every call of one request carries: its language, the browser behind it and, for a member, the token. */
export interface CallScope {
  request: Request;
  lang: LanguageCode;
  token?: string;
}

/**
 * Binds the engine transport to one request. What a page would otherwise handle at every call is
 * handled here once: an unreachable engine answers the unavailable page (503, spec §8), and a 401
 * on a member's call logs the member out and sends them home with a toast (spec §4 "Session
 * expiry"). Refusals are thrown as `EngineRefusal`; `attempt` turns them into a form's result.
 */
export function bindCall(scope: CallScope): EngineCall {
  const client = clientOf(scope.request);
  return async (endpoint, ...[input]) => {
    try {
      return await callEndpoint(endpoint, (input ?? {}) as EndpointInput<typeof endpoint>, { lang: scope.lang, token: scope.token, client });
    } catch (error) {
      throw await pageAnswerFor(scope, error);
    }
  };
}

/** The answer a failed call becomes: the unavailable page, the logout redirect, or the error itself. */
export async function pageAnswerFor(scope: CallScope, error: unknown): Promise<unknown> {
  if (error instanceof EngineUnreachable) return unreachableResponse(scope.request);
  if (scope.token && error instanceof EngineRefusal && error.outcome.kind === "logout") {
    const headers = await logOutHeaders(scope.request);
    headers.append("set-cookie", await toastHeader(scope.request, { type: "info", key: "auth.session_expired" }));
    return redirect("/home/index", { headers });
  }
  return error;
}

/** `retryAfterSeconds`: when the same call may succeed (a code asked for again too soon), if the engine said. */
export type EngineResult<T> = { ok: true; value: T } | { ok: false; message: string | null; retryAfterSeconds?: number | null };

/** Runs engine calls for a form: a refusal becomes its (already translated) message; anything else is thrown. */
export async function attempt<T>(calls: () => Promise<T>): Promise<EngineResult<T>> {
  try {
    return { ok: true, value: await calls() };
  } catch (error) {
    if (error instanceof EngineRefusal)
      return { ok: false, message: error.outcome.kind === "error" ? error.outcome.message : null, retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
}
