import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type * as z from "zod";
import { describeIssues, okEnvelope } from "../../protocol/envelope";
import { fillPath, type Endpoint } from "../../protocol/endpoints";
import type { LanguageCode } from "../../protocol/languages";
import { ResultCode } from "../../protocol/result-codes";
import { BoundedAnswers, publicAnswer, type PublicAnswer, type PublicAnswers } from "../configuration/public-answers";
import { engineText, messageText, requestLanguage } from "../locales/engine-texts";
import { ApiError } from "./api-error";

export interface EndpointInput<E extends Endpoint> {
  params: z.output<E["params"]>;
  query: z.output<E["query"]>;
  body: z.output<E["body"]>;
  request: FastifyRequest;
}

export type EndpointHandler<E extends Endpoint> = (input: EndpointInput<E>) => Promise<z.input<E["response"]>>;

/**
 * Registers one protocol endpoint: parses params, query and body with the endpoint's schemas
 * (a failure answers 400 naming the field) and wraps the handler's data in the envelope.
 * `guard` (the operator's token) runs as the request arrives, before its body is read or parsed:
 * a caller it refuses learns nothing of the input's shape.
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  apiHead: string,
  endpoint: E,
  handler: EndpointHandler<E>,
  guard?: (request: FastifyRequest) => void | Promise<void>,
): void {
  const url = endpoint.absolute ? endpoint.path : `/api/${apiHead}/${endpoint.path}`;
  app.route({
    method: endpoint.method,
    url,
    ...(guard ? { onRequest: async (request: FastifyRequest) => guard(request) } : {}),
    handler: async (request, reply) => reply.send(okEnvelope(await handler(parseInput(endpoint, request)))),
  });
}

/**
 * Registers a public GET whose answer changes only with the configuration tables (issue 13;
 * decision 035): the first request of a URL is parsed and answered as `registerEndpoint` does, and
 * its JSON kept (`PublicAnswers`) until the configuration changes; later requests of that URL are
 * sent the kept JSON without touching the database. Every answer carries its entity tag; a request
 * that names it (`If-None-Match`) is answered 304 with no body. Refusals are never kept.
 */
export function registerPublicEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  apiHead: string,
  endpoint: E,
  answers: PublicAnswers,
  handler: EndpointHandler<E>,
): void {
  const url = endpoint.absolute ? endpoint.path : `/api/${apiHead}/${endpoint.path}`;
  app.route({
    method: endpoint.method,
    url,
    handler: async (request, reply) => {
      let answer = answers.get(request.url);
      if (!answer) {
        const input = parseInput(endpoint, request);
        const generation = answers.begin();
        answer = answers.keep(request.url, JSON.stringify(okEnvelope(await handler(input))), generation);
      }
      return sendTagged(request, reply, answer);
    },
  });
}

/** What one endpoint's versioned answers may hold in all. */
const MAX_VERSIONED_BYTES = 8 * 1024 * 1024;

/**
 * Registers a public GET whose answer is a function of a version the caller can name cheaply
 * (issue 13): a market's book, trades, rules, halt and minute (`MarketData.answerVersion`). The
 * request is parsed, its version worked out, and the JSON kept from the last request with the same
 * input is sent when its version is the same; otherwise the handler answers and its JSON is kept
 * with the version (unless `keep` says not to: an input nobody else will ask again). Kept by the
 * parsed input, so the order or spelling of a URL's parameters makes no second copy, and bounded
 * in bytes. `versionOf` may refuse (an unknown symbol) as the handler would. Entity tags as for
 * `registerPublicEndpoint`.
 */
export function registerVersionedEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  apiHead: string,
  endpoint: E,
  versionOf: (input: EndpointInput<E>) => string,
  handler: EndpointHandler<E>,
  keep: (input: EndpointInput<E>) => boolean = () => true,
): void {
  const url = endpoint.absolute ? endpoint.path : `/api/${apiHead}/${endpoint.path}`;
  const kept = new BoundedAnswers<PublicAnswer & { version: string }>(MAX_VERSIONED_BYTES);
  app.route({
    method: endpoint.method,
    url,
    handler: async (request, reply) => {
      const input = parseInput(endpoint, request);
      const version = versionOf(input);
      const key = JSON.stringify([input.params, input.query]);
      let answer = kept.get(key);
      if (answer?.version !== version) {
        answer = { ...publicAnswer(JSON.stringify(okEnvelope(await handler(input)))), version };
        if (keep(input)) kept.set(key, answer);
      }
      return sendTagged(request, reply, answer);
    },
  });
}

/** A request's params, query and (for a POST) body, each parsed with the endpoint's schema. */
function parseInput<E extends Endpoint>(endpoint: E, request: FastifyRequest): EndpointInput<E> {
  const lang = requestLanguage(request.headers);
  const params = parse(endpoint.params, request.params ?? {}, "path", lang);
  const query = parse(endpoint.query, request.query ?? {}, "query", lang);
  const body = endpoint.method === "POST" ? parse(endpoint.body, request.body ?? {}, "body", lang) : undefined;
  return { params, query, body, request } as EndpointInput<E>;
}

/** A kept public answer with its entity tag; 304 with no body to a request that already has it. */
function sendTagged(request: FastifyRequest, reply: FastifyReply, answer: PublicAnswer) {
  reply.header("etag", answer.etag).header("cache-control", "no-cache");
  if (request.headers["if-none-match"] === answer.etag) return reply.status(304).send();
  return reply.type("application/json; charset=utf-8").send(answer.body);
}

/**
 * Parses one part of a request. A refusal is one sentence in the request's language: the part,
 * then each field with its message (a schema's text key becomes the engine's text for it).
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where: "path" | "query" | "body", lang: LanguageCode): z.output<S> {
  // The refusal's words are looked up only for a refusal (three parts of every request are parsed).
  const invalid = () => engineText(lang, `validation.invalid_${where}`);
  const bad = findControlCharacter(value, "");
  if (bad !== null) throw new ApiError(ResultCode.BAD_REQUEST, `${invalid()}: ${bad || "value"}: ${engineText(lang, "validation.nul")}`, "VALIDATION");
  const result = schema.safeParse(value);
  if (!result.success)
    throw new ApiError(ResultCode.BAD_REQUEST, `${invalid()}: ${describeIssues(result.error.issues, (message) => messageText(lang, message))}`, "VALIDATION");
  return result.data;
}

/** The full URL path of an endpoint, for tests and clients. */
export function endpointUrl(apiHead: string, endpoint: Endpoint, params?: Record<string, string | number>): string {
  const path = fillPath(endpoint.path, params);
  return endpoint.absolute ? path : `/api/${apiHead}/${path}`;
}

/** Postgres text cannot hold NUL: refuse it as bad input instead of failing in the database. */
function findControlCharacter(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (depth > 8 || value === null || typeof value !== "object") return null;
  for (const [key, child] of Object.entries(value)) {
    const found = findControlCharacter(child, path ? `${path}.${key}` : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
