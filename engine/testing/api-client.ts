import { OPERATOR_TOKEN_HEADER } from "../../protocol/operators";
import type { FastifyInstance } from "fastify";
import type * as z from "zod";
import { DEFAULT_API_HEAD, HEADERS, type Endpoint } from "../../protocol/endpoints";
import type { RefusalReason } from "../../protocol/refusal-reasons";
import { ADMIN_TOKEN_HEADER } from "../api/operator-endpoint";
import { endpointUrl } from "../api/register";

/** The input of one call, typed by the endpoint's own schemas (what a client sends, before parsing). */
export interface CallInput<E extends Endpoint> {
  params?: z.input<E["params"]>;
  query?: z.input<E["query"]>;
  body?: z.input<E["body"]>;
}

/** Input a test sends on purpose although the schema refuses it (bad fields, wrong types). */
export interface UncheckedInput {
  params?: Record<string, string | number>;
  /** A list repeats its key (`pageNo=1&pageNo=2`). */
  query?: Record<string, string | number | readonly string[]>;
  body?: unknown;
}

/** Who calls, and from where. */
export interface Caller {
  /** A member's access token (`blade-auth: bearer …`). */
  token?: string;
  /** The data folder's admin token (`x-admin-token`; the CLI). */
  admin?: string;
  /** An operator's session token (`x-operator-token`; the console). */
  operator?: string;
  /** The language header. */
  lang?: string;
  /** The client's address (limits and the login log read it); in-process calls only. */
  ip?: string;
  headers?: Record<string, string>;
}

/** An answer as the client reads it: the HTTP status and the envelope, its data typed by the endpoint. */
export interface Answer<E extends Endpoint> {
  status: number;
  code: number;
  success: boolean;
  msg: string;
  data: z.input<E["response"]> | null;
  /** A refusal's reason code (`protocol/refusal-reasons.ts`). */
  reason?: RefusalReason;
}

/** An HTTP response as a test reads it, whether the call went in-process or over the network. */
export interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json(): any;
}

/**
 * Calls the engine's endpoints through their protocol definitions, so a test names
 * `endpoints.placeOrder`, never a path: a moved path or a changed shape fails to compile instead
 * of answering 404. In-process (Fastify `inject`) given the app, over HTTP given a running
 * engine's base URL (`http://127.0.0.1:8080`).
 */
export class ApiClient {
  constructor(
    private readonly engine: FastifyInstance | string,
    /** Headers and address every call carries unless the caller says otherwise. */
    private readonly defaults: Caller = {},
    private readonly apiHead = DEFAULT_API_HEAD,
  ) {}

  /** The answer of one call, refused or not. */
  async call<E extends Endpoint>(endpoint: E, input: CallInput<E> = {}, caller: Caller = {}): Promise<Answer<E>> {
    return envelopeOf<E>(await this.send(endpoint, input as UncheckedInput, caller));
  }

  /** The data of a call that must succeed; a refusal fails the test with its message. */
  async data<E extends Endpoint>(endpoint: E, input: CallInput<E> = {}, caller: Caller = {}): Promise<z.input<E["response"]>> {
    const answer = await this.call(endpoint, input, caller);
    if (!answer.success) throw new Error(`${endpoint.method} ${endpoint.path} refused: ${answer.code} ${answer.msg}`);
    return answer.data as z.input<E["response"]>;
  }

  /** A call with input the endpoint's schema refuses: for tests of that refusal. */
  async callUnchecked<E extends Endpoint>(endpoint: E, input: UncheckedInput, caller: Caller = {}): Promise<Answer<E>> {
    return envelopeOf<E>(await this.send(endpoint, input, caller));
  }

  /** The raw HTTP response (a file answer, headers, a status without an envelope). */
  async send(endpoint: Endpoint, input: UncheckedInput, caller: Caller = {}): Promise<RawResponse> {
    const who = { ...this.defaults, ...caller, headers: { ...this.defaults.headers, ...caller.headers } };
    const query = new URLSearchParams(
      Object.entries(input.query ?? {})
        .filter(([, value]) => value !== undefined)
        .flatMap(([key, value]) => (Array.isArray(value) ? value.map((v) => [key, v]) : [[key, String(value)]])),
    ).toString();
    const url = endpointUrl(this.apiHead, endpoint, input.params) + (query ? `?${query}` : "");
    const headers: Record<string, string> = {
      ...(who.token ? { [HEADERS.token]: `bearer ${who.token}` } : {}),
      ...(who.admin ? { [ADMIN_TOKEN_HEADER]: who.admin } : {}),
      ...(who.operator ? { [OPERATOR_TOKEN_HEADER]: who.operator } : {}),
      ...(who.lang ? { [HEADERS.language]: who.lang } : {}),
      ...who.headers,
    };
    if (typeof this.engine !== "string") {
      return this.engine.inject({
        method: endpoint.method,
        url,
        headers,
        ...(who.ip ? { remoteAddress: who.ip } : {}),
        ...(input.body !== undefined ? { payload: input.body as object } : {}),
      });
    }
    return overHttp(`${this.engine}${url}`, endpoint.method, headers, input.body);
  }
}

/** One call to a running engine: a string body goes as it is, anything else as JSON. */
async function overHttp(url: string, method: string, headers: Record<string, string>, body: unknown): Promise<RawResponse> {
  const raw = typeof body === "string";
  const response = await fetch(url, {
    method,
    headers: body !== undefined && !raw ? { "content-type": "application/json", ...headers } : headers,
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { statusCode: response.status, headers: Object.fromEntries(response.headers), body: text, json: () => JSON.parse(text) };
}

function envelopeOf<E extends Endpoint>(response: RawResponse): Answer<E> {
  const envelope = response.json() as Omit<Answer<E>, "status">;
  return { status: response.statusCode, ...envelope };
}
