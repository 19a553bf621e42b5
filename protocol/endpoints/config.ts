import * as z from "zod";
import {
  areaCodeSchema,
  CLIENT_TYPES,
  clientVersionSchema,
  CONFIG_TABLE_IDS,
  currencyEntrySchema,
  dictOptionSchema,
  PAGE_SIZE_ALL,
  PAGE_SIZE_MAX,
} from "../config-tables";
import { LANGUAGE_CODES } from "../languages";
import { marketItemSchema } from "../market";
import { define, idParam, intString } from "../endpoint";

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

/** Configuration tables and public market data (spec §7). */
export const configEndpoints = {
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
    path: "cgform-api/detailData/:tableId/:rowId",
    params: z.object({
      tableId: z.enum(CONFIG_TABLE_IDS, { message: "is not a known table" }),
      rowId: idParam,
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
