import type { OperatorPermission } from "./operators";
import * as z from "zod";

/**
 * The shape of one API endpoint of spec §7, named once. The engine registers its routes
 * from these definitions and the web client calls them through the same definitions, so a path
 * or a shape is never declared twice.
 */

export interface Endpoint<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  method: "GET" | "POST";
  /** Path template; `:name` marks a parameter. Relative to `/api/{apiRequestHead}/` unless `absolute`. */
  path: string;
  absolute?: boolean;
  params: P;
  query: Q;
  body: B;
  /** Shape of the envelope's `data` on success. */
  response: R;
  /** An operator call: what the caller's role must permit (protocol/operators.ts). */
  operator?: OperatorPermission;
}

const none = z.object({}).strict();

/** Declares an endpoint; unspecified parts accept nothing (params) or anything (body). */
export const define = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  e: Partial<Pick<Endpoint<P, Q, B, R>, "params" | "query" | "body" | "absolute" | "operator">> & Pick<Endpoint<P, Q, B, R>, "method" | "path" | "response">,
): Endpoint<P, Q, B, R> => ({ params: none, query: z.object({}), body: z.unknown(), ...e }) as Endpoint<P, Q, B, R>;

/** An integer carried in a query string or path, with a message that names what was wrong. */
export const intString = z
  .string()
  .regex(/^-?\d{1,9}$/, "must be an integer")
  .transform((value) => Number(value));

/** A time in milliseconds since 1970 carried in a query string (13 digits today). */
export const millisString = z
  .string()
  .regex(/^\d{1,15}$/, "must be a time in milliseconds")
  .transform((value) => Number(value))
  .pipe(z.number().int().max(8_640_000_000_000_000, "must be a time in milliseconds"));

/** A positive integer id in a path. */
export const idParam = intString.pipe(z.number().int().positive("must be a positive integer"));

/** Fills `:name` parameters of a path template (values are URI-encoded). */
export function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** Default API head (spec §7 paths live under `/api/{apiRequestHead}/`). */
export const DEFAULT_API_HEAD = "mjkj-web";

/** Header names (spec §7): the bearer token travels in its own header, as does the language. */
export const HEADERS = {
  token: "blade-auth",
  language: "lang",
  tenant: "tenant-id",
} as const;
