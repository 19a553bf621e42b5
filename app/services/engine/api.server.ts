import { fillPath, HEADERS, type Endpoint } from "#protocol/endpoints";
import type { LanguageCode } from "#protocol/languages";
import { OPERATOR_TOKEN_HEADER } from "#protocol/operators";
import { interpretResponse, type ApiOutcome } from "./api-response";
import type { EndpointInput, EndpointOutput } from "./endpoint-input";
import { webEnv } from "../platform/env.server";

/** Spec §9: request timeout 300000 ms. */
export const REQUEST_TIMEOUT_MS = 300_000;

/** The engine refused the call; `outcome` says how the page should react (spec §8). */
export class EngineRefusal extends Error {
  constructor(
    readonly outcome: Exclude<ApiOutcome, { kind: "ok" }>,
    /** The answer's `Retry-After` in seconds (a code asked for again too soon), else null. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(outcome.kind === "logout" ? "unauthorized" : (outcome.message ?? "unknown error"));
    this.name = "EngineRefusal";
  }
}

/** The engine could not be reached or did not answer in time (a network failure). */
export class EngineUnreachable extends Error {
  constructor(cause: unknown) {
    super("the exchange engine is unreachable", { cause });
    this.name = "EngineUnreachable";
  }
}

/** The parts of a call as they go on the wire (`EndpointInput` is its typed face). */
interface WireInput {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export interface CallOptions {
  lang: LanguageCode;
  /** Bearer token of the member, when logged in. */
  token?: string;
  /** An operator's session token (the console, decision 043). */
  operatorToken?: string;
  /** The browser behind this call (forwarded to the engine for its login log and limits). */
  client?: { ip: string; userAgent: string };
  timeoutMs?: number;
}

/** The headers every engine call carries (spec §7): client credential, token, language. */
export function engineHeaders(options: CallOptions): Record<string, string> {
  const env = webEnv();
  const headers: Record<string, string> = {
    accept: "application/json",
    authorization: `Basic ${Buffer.from(`${env.CLIENT_ID}:${env.CLIENT_SECRET}`).toString("base64")}`,
    [HEADERS.language]: options.lang,
    [HEADERS.tenant]: env.TENANT_ID,
  };
  if (options.token) headers[HEADERS.token] = `bearer ${options.token}`;
  if (options.operatorToken) headers[OPERATOR_TOKEN_HEADER] = options.operatorToken;
  if (options.client?.ip) headers["x-forwarded-for"] = options.client.ip;
  if (options.client?.userAgent) headers["user-agent"] = options.client.userAgent.slice(0, 400);
  return headers;
}

/**
 * Calls one protocol endpoint of the engine and returns its data, checked against the
 * endpoint's response schema. Throws `EngineRefusal` for any code other than 200 and
 * `EngineUnreachable` for a network failure or a timeout. Pages and forms call the engine through
 * their request's client (`engine/client.server.ts`); this is its transport, and that of the
 * process-wide configuration caches.
 */
export async function callEndpoint<E extends Endpoint>(endpoint: E, typed: EndpointInput<E>, options: CallOptions): Promise<EndpointOutput<E>> {
  const input = typed as WireInput;
  const env = webEnv();
  const path = fillPath(endpoint.path, input.params);
  const url = new URL(endpoint.absolute ? path : `/api/${env.API_HEAD}/${path}`, env.ENGINE_URL);
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const headers = engineHeaders(options);
  let body: string | FormData | undefined;
  if (endpoint.method === "POST") {
    if (input.body instanceof FormData) {
      body = input.body; // multipart (uploads): fetch sets the boundary
    } else {
      headers["content-type"] = "application/json";
      body = JSON.stringify(input.body ?? {});
    }
  }

  // A public read the engine tags (configuration, market data: decision 035) is asked again with
  // the tag of the answer kept from last time; "not modified" reuses that answer's checked data.
  const keepKey = endpoint.method === "GET" && !options.token && !options.operatorToken ? `${options.lang} ${url.href}` : null;
  const kept = keepKey ? keptAnswers.get(keepKey) : undefined;
  if (kept) headers["if-none-match"] = kept.etag;

  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(url, {
      method: endpoint.method,
      headers,
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    if (response.status === 304 && kept) {
      await response.body?.cancel();
      return kept.data as EndpointOutput<E>;
    }
    payload = await response.json().catch(() => null);
  } catch (error) {
    throw new EngineUnreachable(error);
  }
  if (response.status > 500 && payload === null) throw new EngineUnreachable(`HTTP ${response.status}`);

  const outcome = interpretResponse(response.status, payload);
  if (outcome.kind !== "ok") throw new EngineRefusal(outcome, retryAfterOf(response.headers));
  const checked = endpoint.response.safeParse(outcome.data);
  if (!checked.success) {
    console.error(`engine answer of ${endpoint.path} does not match the protocol`, checked.error.issues.slice(0, 3));
    throw new EngineRefusal({ kind: "error", code: 502, message: null });
  }
  const etag = response.headers.get("etag");
  if (keepKey && etag) {
    if (keptAnswers.size >= MAX_KEPT_ANSWERS) keptAnswers.clear();
    keptAnswers.set(keepKey, { etag, data: checked.data });
  }
  return checked.data as EndpointOutput<E>;
}

/** A refusal's `Retry-After` in whole seconds (the engine sends no dates), else null. */
function retryAfterOf(headers: Headers): number | null {
  const value = headers.get("retry-after");
  return value && /^\d{1,6}$/.test(value) ? Number(value) : null;
}

/** Public answers kept with their entity tags, by language and URL (see `callEndpoint`); at most this many. */
const MAX_KEPT_ANSWERS = 500;
const keptAnswers = new Map<string, { etag: string; data: unknown }>();
