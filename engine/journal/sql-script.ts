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
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => r[k] !== undefined)))].map((c) => `"${c}"`).join(", ");
  return `insert into ${table} (${columns}) select ${columns} from json_populate_recordset(null::${table}, ${json(rows)}) ${tail}`;
}

/**
 * A value as an SQL literal, dollar-quoted with a tag the text does not contain: no escaping to
 * get wrong, whatever the text holds.
 */
export function text(value: string): string {
  let tag = "v";
  // Not in the text, nor formed by its end and the closing tag ("…$v" + "$v$").
  while (`${value}$`.includes(`$${tag}$`)) tag += "v";
  return `$${tag}$${value}$${tag}$`;
}

/** A value as a JSON literal. */
export function json(value: unknown): string {
  return `${text(JSON.stringify(value))}::json`;
}
