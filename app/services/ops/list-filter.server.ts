import type * as z from "zod";

/** A list page's filter as read: the values as typed, each field's error key, and the engine's query when nothing is wrong. */
export interface ListFilter<Q> {
  values: Record<string, string>;
  errors: Record<string, string>;
  query: Q | null;
  /** Whether the page is one further down the list (its `before` was given). */
  paged: boolean;
}

/**
 * Reads a console list's filter from the query string with the engine's own query schema, so the
 * page and the engine refuse the same values with the same message key (a filter with an error
 * asks the engine for nothing). Values are trimmed and shown again as typed, never longer than
 * `longest`; `before` is the page's position.
 */
export function readListFilter<S extends z.ZodType>(schema: S, search: URLSearchParams, fields: readonly string[], longest = 300): ListFilter<z.output<S>> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    const value = (search.get(field) ?? "").trim().slice(0, longest);
    if (value) values[field] = value;
  }
  const before = search.get("before");
  const parsed = schema.safeParse(before === null ? values : { ...values, before });
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      errors[field] ??= issue.message;
    }
  }
  return { values, errors, query: parsed.success ? parsed.data : null, paged: before !== null };
}

/** The list's next page (the same filter, starting below `next`), or null at its end. */
export function olderPageOf(path: string, values: Record<string, string>, next: string | null): string | null {
  return next === null ? null : `${path}?${new URLSearchParams({ ...values, before: next }).toString()}`;
}
