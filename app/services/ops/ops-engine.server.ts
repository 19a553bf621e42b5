import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import type { Endpoint } from "#protocol/endpoint";
import { endpoints } from "#protocol/endpoints";
import type { LanguageCode } from "#protocol/languages";
import type { OperatorPermission, OperatorSelf } from "#protocol/operators";
import { keyError, textError } from "~/lib/forms/form-error";
import { clientOf } from "../account/auth.server";
import { callEndpoint, EngineRefusal, EngineUnreachable } from "../engine/api.server";
import type { EndpointInput, EndpointOutput, InputArgs } from "../engine/endpoint-input";
import { unreachableResponse } from "../platform/errors.server";
import { detectLanguage } from "../platform/i18n.server";
import { opsSignOutCookie, opsToken } from "./ops-session.server";

/** Every console answer: never indexed, never cached (decision 043). */
export const OPS_HEADERS = { "x-robots-tag": "noindex, nofollow", "cache-control": "no-store" } as const;

/** One signed-in operator's request: who, what they may do, and their engine calls. */
export interface OpsEngine {
  readonly lang: LanguageCode;
  readonly self: OperatorSelf;
  may(permission: OperatorPermission): boolean;
  call<E extends Endpoint>(endpoint: E, ...input: InputArgs<E>): Promise<EndpointOutput<E>>;
  /** A call whose refusal becomes a form error (an encoded key or text) instead of a thrown answer. */
  attempt<T>(calls: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: string }>;
}

/** A refusal of an operator call, as a form error: the reason's own translated text where the console has one. */
const REASON_KEYS: Record<string, string> = {
  OPERATOR_CREDENTIALS: "ops.errors.credentials",
  TOO_MANY_ATTEMPTS: "ops.errors.too_many",
  GOOGLE_CODE_WRONG: "ops.errors.totp_wrong",
  OPERATOR_EXISTS: "ops.errors.exists",
  OPERATOR_SELF: "ops.errors.self",
  OPERATOR_ROLE: "ops.errors.role_denied",
  OPERATOR_UNKNOWN: "ops.errors.unknown_operator",
  DECIDED_ALREADY: "ops.errors.decided",
  WITHDRAWAL_WRONG_STATE: "ops.errors.decided",
  WITHDRAWAL_UNKNOWN: "ops.errors.item",
  NOT_FOUND: "ops.errors.item",
  VALIDATION: "ops.errors.invalid",
};

export function opsRefusalError(refusal: EngineRefusal): string {
  const outcome = refusal.outcome;
  // A login refused (401) carries its reason too: the wrong credentials, an expired set-up.
  const reason = outcome.kind === "error" || outcome.kind === "logout" ? outcome.reason : undefined;
  const key = reason ? REASON_KEYS[reason] : undefined;
  if (key) return keyError(key, refusal.retryAfterSeconds ? { seconds: refusal.retryAfterSeconds } : undefined);
  return outcome.kind === "error" && outcome.message ? textError(outcome.message) : keyError("errors.unknown");
}

/** An engine call of the console: the operator's token, the browser's address and language. */
export async function opsCall<E extends Endpoint>(request: Request, lang: LanguageCode, token: string | null, endpoint: E, input: EndpointInput<E>) {
  try {
    return await callEndpoint(endpoint, input, { lang, client: clientOf(request), ...(token ? { operatorToken: token } : {}) });
  } catch (error) {
    if (error instanceof EngineUnreachable) throw unreachableResponse(request);
    throw error;
  }
}

/**
 * Runs a console loader or action for a signed-in operator whose role permits `permission` (null:
 * any operator). No session, or one the engine ended, goes to the login page (with the way back);
 * a role that may not is a 403 page. Every answer carries `OPS_HEADERS`.
 */
export async function withOperator<R>(
  args: LoaderFunctionArgs,
  permission: OperatorPermission | null,
  handler: (args: LoaderFunctionArgs & { ops: OpsEngine }) => Promise<R>,
): Promise<R> {
  const { request } = args;
  const [lang, token] = await Promise.all([detectLanguage(request), opsToken(request)]);
  const url = new URL(request.url);
  const toLogin = async () =>
    redirect(`/ops/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`, {
      headers: { ...OPS_HEADERS, "set-cookie": await opsSignOutCookie(request) },
    });
  if (!token) throw await toLogin();
  const call = <E extends Endpoint>(endpoint: E, ...[input]: InputArgs<E>) => opsCall(request, lang, token, endpoint, (input ?? {}) as EndpointInput<E>);
  let self: OperatorSelf;
  try {
    self = await call(endpoints.opsSelf);
  } catch (error) {
    if (error instanceof EngineRefusal && error.outcome.kind === "logout") throw await toLogin();
    throw error;
  }
  const may = (p: OperatorPermission) => self.permissions.includes(p);
  if (permission && !may(permission)) throw data({ permission }, { status: 403, headers: OPS_HEADERS });
  const ops: OpsEngine = {
    lang,
    self,
    may,
    call: async (endpoint, ...input) => {
      try {
        return await call(endpoint, ...input);
      } catch (error) {
        if (error instanceof EngineRefusal && error.outcome.kind === "logout") throw await toLogin();
        throw error;
      }
    },
    attempt: async (calls) => {
      try {
        return { ok: true, value: await calls() };
      } catch (error) {
        if (error instanceof EngineRefusal) return { ok: false, error: opsRefusalError(error) };
        throw error;
      }
    },
  };
  return handler({ ...args, ops });
}
