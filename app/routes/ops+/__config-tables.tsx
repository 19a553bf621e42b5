import type { EditableConfigTable } from "#protocol/endpoints/config-admin";

/** The configuration page (issue 29, decision 044) and one of its tables. */
export const CONFIG_PAGE = "/ops/config";
export const configPageOf = (table: EditableConfigTable, edit?: number | "new") =>
  `${CONFIG_PAGE}?${new URLSearchParams({ table, ...(edit === undefined ? {} : { edit: String(edit) }) }).toString()}`;

/** The column whose value no other row of the table may have (the code pages and cookies name a row by). */
export const CODE_COLUMN = { nav_item: "nav_code", footer_link: "link_code", sys_language: "value", currency: "exchange_value" } as const;

/** How a column is typed in the row's form. */
export interface ColumnSpec {
  name: string;
  kind: "text" | "sort" | "show" | "parent" | "language" | "rate";
  /** A hint under the field (`ops.config.hints.{name}`). */
  hint?: boolean;
  maxLength?: number;
}

/** Each table's columns, in the form's and the list's order. */
export const CONFIG_COLUMNS: Record<EditableConfigTable, ColumnSpec[]> = {
  nav_item: [
    { name: "nav_code", kind: "text", hint: true, maxLength: 40 },
    { name: "nav_path", kind: "text", hint: true, maxLength: 300 },
    { name: "pid", kind: "parent" },
    { name: "nav_sort", kind: "sort", hint: true },
    { name: "nav_icon", kind: "text", maxLength: 40 },
    { name: "nav_show", kind: "show" },
  ],
  footer_link: [
    { name: "group_code", kind: "text", hint: true, maxLength: 40 },
    { name: "link_code", kind: "text", hint: true, maxLength: 40 },
    { name: "link_path", kind: "text", hint: true, maxLength: 300 },
    { name: "link_sort", kind: "sort", hint: true },
    { name: "link_show", kind: "show" },
  ],
  sys_language: [
    { name: "value", kind: "language" },
    { name: "label", kind: "text", maxLength: 40 },
    { name: "text", kind: "text", maxLength: 10 },
    { name: "sort", kind: "sort", hint: true },
  ],
  currency: [
    { name: "exchange_value", kind: "text", hint: true, maxLength: 3 },
    { name: "quote_currency", kind: "text", maxLength: 10 },
    { name: "exchange_code", kind: "text", maxLength: 8 },
    { name: "rate", kind: "rate", hint: true, maxLength: 40 },
    { name: "sort", kind: "sort", hint: true },
  ],
};
