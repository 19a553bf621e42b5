import { sql, type Kysely } from "kysely";
import {
  CONFIG_TABLES,
  PAGE_SIZE_ALL,
  type ConfigTableId,
  type CurrencyEntry,
  type LanguageEntry,
} from "../../protocol/config-tables";
import { endpoints } from "../../protocol/endpoints";
import type { Database } from "../store/schema";
import { ApiError } from "./api-error";
import { registerEndpoint } from "./register";
import type { ApiContext } from "./context";

/** Columns of each table, taken from the protocol's record schema (the one place that names them). */
const columnsOf = (table: ConfigTableId): string[] => Object.keys(CONFIG_TABLES[table].shape);

/** Paging keys of `getData`; every other query key is an equality filter. */
const PAGING_KEYS = new Set(["pageNo", "pageSize", "column", "order"]);

/** Configuration tables (spec §7 "Configuration tables"): generic paging, detail, dicts, texts, rates. */
export function registerConfigTableRoutes({ app, apiHead, db }: ApiContext): void {
  registerEndpoint(app, apiHead, endpoints.getData, async ({ params, query }) => {
    const table = params.tableId;
    const columns = columnsOf(table);
    const column = query.column ?? "id";
    if (!columns.includes(column)) throw ApiError.badRequest(`column: must be one of ${columns.join(", ")}`);
    const filters = Object.entries(query).filter(([key]) => !PAGING_KEYS.has(key)) as Array<[string, string]>;
    for (const [key] of filters) {
      if (!columns.includes(key)) throw ApiError.badRequest(`${key}: is not a column of ${table}`);
    }
    const pageNo = query.pageNo ?? 1;
    const pageSize = query.pageSize ?? 10;
    return readPage(db, table, { columns, column, order: query.order ?? "desc", filters, pageNo, pageSize });
  });

  registerEndpoint(app, apiHead, endpoints.detailData, async ({ params }) => {
    const columns = columnsOf(params.table);
    const result = await sql<Record<string, unknown>>`
      select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(params.table)} where id = ${params.id}
    `.execute(db);
    const row = result.rows[0];
    if (!row) throw ApiError.notFound(`${params.table} ${params.id} not found`);
    return row;
  });

  registerEndpoint(app, apiHead, endpoints.dictItems, async ({ params }) => {
    const rows = await db
      .selectFrom("dict_item")
      .select(["item_value", "item_text", "item_key"])
      .where("dict_code", "=", params.dict)
      .orderBy("sort")
      .orderBy("id")
      .execute();
    return rows.map((r) => ({ value: r.item_value, text: r.item_text, title: r.item_key }));
  });

  registerEndpoint(app, apiHead, endpoints.languageEntries, async ({ params }) => {
    const rows: LanguageEntry[] = (await db
      .selectFrom("lang_entry")
      .select(["id", "label", "text", "value"])
      .where("value", "=", params.lang)
      .orderBy("id")
      .execute()) as LanguageEntry[];
    return rows;
  });

  registerEndpoint(app, apiHead, endpoints.coinRates, async () => {
    return (await db.selectFrom("currency").selectAll().orderBy("sort").orderBy("id").execute()) as CurrencyEntry[];
  });

  registerEndpoint(app, apiHead, endpoints.areaCodes, async () => {
    return db.selectFrom("area_code").selectAll().orderBy("sort").orderBy("id").execute();
  });

  registerEndpoint(app, apiHead, endpoints.clientVersion, async ({ query }) => {
    const row = await db
      .selectFrom("client_version")
      .selectAll()
      .where("client_type", "=", query.clientType)
      .orderBy("version_code", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!row) throw ApiError.notFound(`no ${query.clientType} client has been released`);
    return { ...row, released_at: new Date(row.released_at).toISOString() } as never;
  });
}

interface PageQuery {
  columns: string[];
  column: string;
  order: "asc" | "desc";
  filters: Array<[string, string]>;
  pageNo: number;
  pageSize: number;
}

/** One page of a configuration table. Identifiers come from the registry, values are parameters. */
async function readPage(db: Kysely<Database>, table: ConfigTableId, q: PageQuery) {
  const where = q.filters.length
    ? sql`where ${sql.join(
        q.filters.map(([key, value]) => sql`${sql.ref(key)}::text = ${value}`),
        sql` and `,
      )}`
    : sql``;
  const direction = q.order === "asc" ? sql`asc` : sql`desc`;
  const all = q.pageSize === PAGE_SIZE_ALL;
  const limit = all ? sql`` : sql`limit ${q.pageSize} offset ${(q.pageNo - 1) * q.pageSize}`;
  const countResult = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} ${where}`.execute(db);
  const total = countResult.rows[0]?.n ?? 0;
  const rows = await sql<Record<string, unknown>>`
    select ${sql.join(q.columns.map((c) => sql.ref(c)))} from ${sql.table(table)} ${where}
    order by ${sql.ref(q.column)} ${direction}, id ${direction} ${limit}
  `.execute(db);
  const size = all ? total : q.pageSize;
  return {
    records: rows.rows,
    total,
    size,
    current: all ? 1 : q.pageNo,
    pages: all ? (total > 0 ? 1 : 0) : Math.ceil(total / q.pageSize),
  };
}
