import type { Database } from "../store/schema";

/**
 * SQL text for the journal and projection scripts (decision 012): a batch's rows go to each table
 * in one statement, as one JSON value typed by the table itself, and the whole script runs in one
 * round trip (no parameters).
 */

/**
 * One INSERT for many rows: the rows travel as one JSON value and the table's own row type
 * converts each field (`json_populate_recordset`). Columns are those the rows give a value;
 * the others take their defaults.
 */
export function insertStatement(table: keyof Database & string, rows: Array<Record<string, unknown>>, tail = ""): string | null {
  if (!rows.length) return null;
  // Every row's keys, without an array per row (a batch can have thousands of rows).
  const names = new Set<string>();
  for (const row of rows) for (const key in row) if (row[key] !== undefined) names.add(key);
  const columns = [...names].map((c) => `"${c}"`).join(", ");
  return `insert into ${table} (${columns}) select ${columns} from json_populate_recordset(null::${table}, ${json(rows)}) ${tail}`;
}

/**
 * Rows as a FROM item (`alias(columns)`) that the planner can count. A set-returning function is
 * estimated at 100 rows whatever it holds, and against a table whose statistics were older than
 * the table, Postgres joined the batch's rows to `spot_order` by reading the whole table (a hash
 * join over a sequential scan: milliseconds per write, growing with the table). The LIMIT gives
 * the real count, so each row is one index probe.
 */
export function jsonRecords(rows: ReadonlyArray<Record<string, unknown>>, alias: string, columns: string): string {
  return `(select * from json_to_recordset(${json(rows)}) as r(${columns}) limit ${rows.length}) as ${alias}`;
}

/** Texts as a subquery for `in (…)`, counted for the planner as `jsonRecords` is. */
export function jsonTexts(values: readonly string[]): string {
  return `(select value from json_array_elements_text(${json(values)}) limit ${values.length})`;
}

/**
 * A value as an SQL literal, dollar-quoted with a tag the text does not contain: no escaping to
 * get wrong, whatever the text holds.
 */
export function text(value: string): string {
  let tag = "v";
  // Not in the text, nor formed by its end and the closing tag ("…$v" + "$v$"); the text is
  // scanned where it is (a batch's rows can be a megabyte).
  while (value.includes(`$${tag}$`) || value.endsWith(`$${tag}`)) tag += "v";
  return `$${tag}$${value}$${tag}$`;
}

/** A value as a JSON literal. */
export function json(value: unknown): string {
  return `${text(JSON.stringify(value))}::json`;
}
