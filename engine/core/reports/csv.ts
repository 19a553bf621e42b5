/**
 * CSV text of RFC 4180: fields separated by commas, records ended by CRLF, a field quoted when it
 * holds a comma, a quote, CR or LF, and quotes inside doubled. Pure.
 *
 * NOTE: a spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, TAB or CR as a formula
 * (CSV injection). Such a text cell is prefixed with `'` so it shows as text; a canonical decimal
 * number (`-12.5`) is left alone, it is a number and cannot be a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** One field, neutralised against formulas and quoted when needed. */
export function csvField(value: string | null | undefined): string {
  let text = value ?? "";
  if (FORMULA_START.test(text) && !DECIMAL.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF. */
export function csvRecord(fields: ReadonlyArray<string | null | undefined>): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
