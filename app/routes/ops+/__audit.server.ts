import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { endpoints, type Endpoint } from "#protocol/endpoints";
import { auditActionOf, OPERATOR_ROLES } from "#protocol/operators";
import { readFormError } from "~/lib/forms/form-error";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import { redirectWithToast } from "~/services/platform/toast.server";

/*
 * The audit log's page (`audit.tsx`) and its CSV (`audit[.csv].tsx`): the filter read from the
 * query, the engine's calls. The log is read-only: nothing here writes to it.
 */

export const AUDIT_PAGE = "/ops/audit";

export const AUDIT_FILTER_FIELDS = ["operator", "action", "target", "from", "to"] as const;
export type AuditFilterField = (typeof AUDIT_FILTER_FIELDS)[number];

/** The text filters' longest values (the engine's own limits, `auditQuerySchema`). */
const MAX_LENGTH: Record<"operator" | "action" | "target", number> = { operator: 60, action: 60, target: 80 };

/** A `datetime-local` value (`2026-11-28T10:00`, seconds optional), read as UTC like every time the console shows. */
export function utcMillisOf(value: string): number | null {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value);
  if (!parts) return null;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const milli = Number((parts[7] ?? "0").padEnd(3, "0"));
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, milli);
  const back = new Date(ms);
  // 2026-02-31 or 25:00 is no time: the date must read back as written.
  const same =
    back.getUTCFullYear() === year &&
    back.getUTCMonth() === month - 1 &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute &&
    back.getUTCSeconds() === second;
  return same && year >= 1970 ? ms : null;
}

export interface AuditFilter {
  operator?: string;
  action?: string;
  target?: string;
  /** ms, inclusive. */
  from?: number;
  /** ms, exclusive. */
  to?: number;
}

/**
 * The filter of a query: the values as typed (to show them again), and either the filter or each
 * field's error key (a filter with an error asks the engine for nothing). `before` is the page's
 * position (the id the previous page ended at).
 */
export function auditFilterOf(search: URLSearchParams) {
  const values: Partial<Record<AuditFilterField, string>> = {};
  const errors: Partial<Record<AuditFilterField | "before", string>> = {};
  const filter: AuditFilter = {};
  for (const field of AUDIT_FILTER_FIELDS) {
    // A value is shown again as typed, but never more of it than a filter can hold.
    const value = (search.get(field) ?? "").trim().slice(0, 200);
    if (value === "") continue;
    values[field] = value;
    if (field === "from" || field === "to") {
      const ms = utcMillisOf(value);
      if (ms === null) errors[field] = "ops.errors.time";
      else filter[field] = ms;
    } else if (value.length > MAX_LENGTH[field]) {
      errors[field] = "ops.audit.too_long";
    } else if (/\p{Cc}/u.test(value)) {
      // A control character (a NUL the database refuses, a line break) is in no name, action or target.
      errors[field] = "ops.audit.bad_text";
    } else {
      filter[field] = value;
    }
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) errors.to = "ops.audit.bad_range";
  const rawBefore = search.get("before");
  const before = rawBefore && /^\d{1,18}$/.test(rawBefore) ? rawBefore : undefined;
  if (rawBefore !== null && !before) errors.before = "ops.errors.page";
  const ok = Object.keys(errors).length === 0;
  return { values, errors: ok ? null : errors, filter: ok ? filter : null, before };
}

/** The filter as the engine's query takes it (times as ms in text). */
function engineQuery(filter: AuditFilter) {
  const { from, to, ...texts } = filter;
  return { ...texts, ...(from !== undefined ? { from: String(from) } : {}), ...(to !== undefined ? { to: String(to) } : {}) };
}

/** The actions an audit row can name: one per operator call that changes something (its path, as the engine names it). */
const AUDITED_ACTIONS = (Object.values(endpoints) as Endpoint[])
  .filter((endpoint) => endpoint.operator !== undefined && endpoint.method === "POST")
  .map((endpoint) => auditActionOf(endpoint.path))
  .sort();

/** The audit page: the filter, a page of rows newest first, and where the next page starts. */
export function loadAudit(args: LoaderFunctionArgs) {
  return withOperator(args, "audit.read", async ({ ops, request }) => {
    const { values, errors, filter, before } = auditFilterOf(new URL(request.url).searchParams);
    const base = { values, actions: AUDITED_ACTIONS, roles: OPERATOR_ROLES, before: before ?? null };
    if (!filter) return data({ ...base, errors, refusal: null, page: null }, { status: 400, headers: OPS_HEADERS });
    const page = await ops.attempt(() => ops.call(endpoints.opsAudit, { query: { ...engineQuery(filter), ...(before ? { before } : {}) } }));
    if (!page.ok) return data({ ...base, errors: null, refusal: page.error, page: null }, { status: 400, headers: OPS_HEADERS });
    return data({ ...base, errors: null, refusal: null, page: page.value }, { headers: OPS_HEADERS });
  });
}

/** `YYYYMMDD` of a time, in UTC. */
function dayStamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");
}

/**
 * The CSV of every row of the filter (oldest first, at most the engine's export limit; when it cut
 * the rows short, `X-Truncated: true` says so). A bad filter goes back to the page, which says what
 * is wrong with it; a refusal too, with a toast.
 */
export function downloadAudit(args: LoaderFunctionArgs) {
  return withOperator(args, "audit.read", async ({ ops, request }) => {
    const { values, filter } = auditFilterOf(new URL(request.url).searchParams);
    const back = `${AUDIT_PAGE}?${new URLSearchParams(values as Record<string, string>).toString()}`.replace(/\?$/, "");
    if (!filter) return redirect(back, { headers: OPS_HEADERS });
    const csv = await ops.attempt(() => ops.call(endpoints.opsAuditCsv, { query: engineQuery(filter) }));
    if (!csv.ok) {
      const error = readFormError(csv.error);
      return redirectWithToast(request, back, { type: "error", ...("text" in error ? { message: error.text } : { key: error.key }) }, { headers: OPS_HEADERS });
    }
    return new Response(csv.value.csv, {
      headers: {
        ...OPS_HEADERS,
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="audit-${dayStamp(Date.now())}.csv"`,
        ...(csv.value.truncated ? { "x-truncated": "true" } : {}),
      },
    });
  });
}
