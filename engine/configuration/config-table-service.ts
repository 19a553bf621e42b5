import { sql, type Kysely } from "kysely";
import { CONFIG_TABLES, PAGE_SIZE_ALL, type CLIENT_TYPES, type ConfigTableId, type CurrencyEntry, type LanguageEntry } from "../../protocol/config-tables";
import { ResultCode } from "../../protocol/result-codes";
import { Refusal } from "../locales/refusal";
import type { Database } from "../store/schema";

/** Columns of each table, taken from the protocol's record schema (the one place that names them). */
const columnsOf = (table: ConfigTableId): string[] => Object.keys(CONFIG_TABLES[table].shape);

/** Paging keys of `getData`; every other query key is an equality filter. */
const PAGING_KEYS = new Set(["pageNo", "pageSize", "column", "order"]);

export interface PageRequest {
  pageNo?: number;
  pageSize?: number;
  column?: string;
  order?: "asc" | "desc";
  /** Any other key filters on the column of that name. */
  [filter: string]: string | number | undefined;
}

/**
 * The configuration tables (spec §7 "Configuration tables"): navigation, texts, languages,
 * currencies, area codes, client versions… read-only to members, paged generically. Identifiers
 * come from the protocol's registry, values are always parameters.
 */
export class ConfigTableService {
  constructor(private readonly db: Kysely<Database>) {}

  /** One page of a table, ordered by a column (id desc by default), filtered by column values. */
  async page(table: ConfigTableId, request: PageRequest) {
    const columns = columnsOf(table);
    const column = request.column ?? "id";
    if (!columns.includes(column)) throw Refusal.plain(ResultCode.BAD_REQUEST, `column: must be one of ${columns.join(", ")}`);
    const filters = Object.entries(request).filter(([key]) => !PAGING_KEYS.has(key)) as Array<[string, string]>;
    for (const [key] of filters) {
      if (!columns.includes(key)) throw Refusal.plain(ResultCode.BAD_REQUEST, `${key}: is not a column of ${table}`);
    }
    const pageNo = request.pageNo ?? 1;
    const pageSize = request.pageSize ?? 10;
    const where = filters.length
      ? sql`where ${sql.join(
          filters.map(([key, value]) => sql`${sql.ref(key)}::text = ${value}`),
          sql` and `,
        )}`
      : sql``;
    const direction = request.order === "asc" ? sql`asc` : sql`desc`;
    const all = pageSize === PAGE_SIZE_ALL;
    const limit = all ? sql`` : sql`limit ${pageSize} offset ${(pageNo - 1) * pageSize}`;
    const countResult = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} ${where}`.execute(this.db);
    const total = countResult.rows[0]?.n ?? 0;
    const rows = await sql<Record<string, unknown>>`
      select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)} ${where}
      order by ${sql.ref(column)} ${direction}, id ${direction} ${limit}
    `.execute(this.db);
    return {
      records: rows.rows,
      total,
      size: all ? total : pageSize,
      current: all ? 1 : pageNo,
      pages: all ? (total > 0 ? 1 : 0) : Math.ceil(total / pageSize),
    };
  }

  /** One record by id. */
  async record(table: ConfigTableId, id: number): Promise<Record<string, unknown>> {
    const columns = columnsOf(table);
    const result = await sql<Record<string, unknown>>`
      select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)} where id = ${id}
    `.execute(this.db);
    const row = result.rows[0];
    if (!row) throw Refusal.plain(ResultCode.NOT_FOUND, `${table} ${id} not found`);
    return row;
  }

  /** A dictionary's items in order (unknown dictionary: none). */
  async dictItems(dict: string) {
    const rows = await this.db
      .selectFrom("dict_item")
      .select(["item_value", "item_text", "item_key"])
      .where("dict_code", "=", dict)
      .orderBy("sort")
      .orderBy("id")
      .execute();
    return rows.map((r) => ({ value: r.item_value, text: r.item_text, title: r.item_key }));
  }

  async languageEntries(lang: string): Promise<LanguageEntry[]> {
    return (await this.db
      .selectFrom("lang_entry")
      .select(["id", "label", "text", "value"])
      .where("value", "=", lang)
      .orderBy("id")
      .execute()) as LanguageEntry[];
  }

  async coinRates(): Promise<CurrencyEntry[]> {
    return (await this.db.selectFrom("currency").selectAll().orderBy("sort").orderBy("id").execute()) as CurrencyEntry[];
  }

  areaCodes() {
    return this.db.selectFrom("area_code").selectAll().orderBy("sort").orderBy("id").execute();
  }

  /** The latest released version of a client type; none released yet is a 404. */
  async latestClientVersion(clientType: (typeof CLIENT_TYPES)[number]) {
    const row = await this.db
      .selectFrom("client_version")
      .selectAll()
      .where("client_type", "=", clientType)
      .orderBy("version_code", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!row) throw Refusal.plain(ResultCode.NOT_FOUND, `no ${clientType} client has been released`);
    // The row was found by its client type, so it has the one asked for.
    return { ...row, client_type: clientType, released_at: new Date(row.released_at).toISOString() };
  }
}
