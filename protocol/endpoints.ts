import * as z from "zod";
import {
  areaCodeSchema,
  CLIENT_TYPES,
  clientVersionSchema,
  CONFIG_TABLE_IDS,
  currencyEntrySchema,
  dictOptionSchema,
  languageEntrySchema,
  PAGE_SIZE_ALL,
  PAGE_SIZE_MAX,
} from "./config-tables";
import { LANGUAGE_CODES } from "./languages";
import { marketItemSchema } from "./market";

/**
 * Every API path of spec §7 that is implemented, named once. The engine registers its routes
 * from these definitions and the web client calls them through the same definitions, so a path
 * or a shape is never declared twice.
 */

export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: "GET" | "POST";
  /** Path template; `:name` marks a parameter. Relative to `/api/{apiRequestHead}/` unless `absolute`. */
  path: string;
  absolute?: boolean;
  params: P;
  query: Q;
  body: B;
  /** Shape of the envelope's `data` on success. */
  response: R;
}

const none = z.object({}).strict();
const define = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  e: Partial<Pick<Endpoint<P, Q, B, R>, "params" | "query" | "body" | "absolute">> &
    Pick<Endpoint<P, Q, B, R>, "method" | "path" | "response">,
): Endpoint<P, Q, B, R> =>
  ({ params: none, query: z.object({}), body: z.unknown(), ...e }) as Endpoint<P, Q, B, R>;

/** An integer carried in a query string or path, with a message that names what was wrong. */
export const intString = z
  .string()
  .regex(/^-?\d{1,9}$/, "must be an integer")
  .transform((value) => Number(value));

const idParam = intString.pipe(z.number().int().positive("must be a positive integer"));

/** Paging of `getData` (spec §7): column `id`, order desc by default; `pageSize=-521` returns all. */
export const pagingQuerySchema = z
  .object({
    pageNo: intString.pipe(z.number().int().min(1, "must be 1 or more")).optional(),
    pageSize: intString
      .pipe(
        z
          .number()
          .int()
          .refine((n) => n === PAGE_SIZE_ALL || (n >= 1 && n <= PAGE_SIZE_MAX), {
            message: `must be between 1 and ${PAGE_SIZE_MAX}, or ${PAGE_SIZE_ALL} for all rows`,
          }),
      )
      .optional(),
    column: z.string().max(60).optional(),
    order: z.enum(["asc", "desc"], { message: "must be asc or desc" }).optional(),
  })
  // Other query values are equality filters on the table's filterable columns (checked by the engine).
  .catchall(z.string().max(200, "is too long"));

export const endpoints = {
  getData: define({
    method: "GET",
    path: "cgform-api/getData/:tableId",
    params: z.object({ tableId: z.enum(CONFIG_TABLE_IDS, { message: "is not a known table" }) }),
    query: pagingQuerySchema,
    response: z.object({
      records: z.array(z.record(z.string(), z.unknown())),
      total: z.number().int(),
      size: z.number().int(),
      current: z.number().int(),
      pages: z.number().int(),
    }),
  }),
  detailData: define({
    method: "GET",
    path: "cgform-api/detailData/:table/:id",
    params: z.object({
      table: z.enum(CONFIG_TABLE_IDS, { message: "is not a known table" }),
      id: idParam,
    }),
    response: z.record(z.string(), z.unknown()),
  }),
  dictItems: define({
    method: "GET",
    path: "sys/sys/dict/getDictItems/:dict",
    params: z.object({ dict: z.string().regex(/^[a-z][a-z0-9_]{0,59}$/, "must be a dictionary code") }),
    response: z.array(dictOptionSchema),
  }),
  languageEntries: define({
    method: "GET",
    path: "coin/open/lang/:lang",
    params: z.object({ lang: z.enum(LANGUAGE_CODES, { message: "is not a supported language" }) }),
    // Entries are returned loosely typed: the web tier checks each one and skips the bad ones.
    response: z.array(z.unknown()),
  }),
  coinRates: define({
    method: "GET",
    path: "open/getCoinRate",
    response: z.array(currencyEntrySchema),
  }),
  areaCodes: define({
    method: "GET",
    path: "coin/open/get/phone/areaCode",
    response: z.array(areaCodeSchema),
  }),
  clientVersion: define({
    method: "GET",
    path: "coin/open/client/version",
    query: z.object({ clientType: z.enum(CLIENT_TYPES, { message: `must be one of ${CLIENT_TYPES.join(", ")}` }) }),
    response: clientVersionSchema,
  }),
  marketInitData: define({
    method: "GET",
    path: "coin/open/market/initData",
    query: z.object({ type: z.enum(["0", "1", "2"], { message: "must be 0 (spot), 1 (ubw) or 2 (bbw)" }).optional() }),
    response: z.array(marketItemSchema),
  }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

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

export { languageEntrySchema };
