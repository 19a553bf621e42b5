import type * as z from "zod";
import type { Endpoint } from "#protocol/endpoint";

/**
 * What a call of an endpoint takes and gives, read off its protocol schemas: the inputs are the
 * schemas' inputs (what is sent, e.g. a page size as the text "50"), the answer the response
 * schema's output. A part is optional when its schema accepts an empty object (or anything).
 */
// `{} extends T`: T asks for nothing (every key optional), the usual test, hence the `{}`.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type Part<K extends string, T> = {} extends T ? { [P in K]?: T } : { [P in K]: T };

export type EndpointInput<E extends Endpoint> = Part<"params", z.input<E["params"]>> & Part<"query", z.input<E["query"]>> & Part<"body", z.input<E["body"]>>;

export type EndpointOutput<E extends Endpoint> = z.output<E["response"]>;

/** The input argument of a call: left out when the endpoint needs none. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- as in Part
export type InputArgs<E extends Endpoint> = {} extends EndpointInput<E> ? [input?: EndpointInput<E>] : [input: EndpointInput<E>];
