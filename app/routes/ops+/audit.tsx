import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { DataTable } from "~/components/data-table";
import * as f from "~/components/forms.css";
import { formatDateTimeSeconds } from "~/lib/dates";
import { formErrorText } from "~/lib/forms/form-error";
import { useTranslation } from "~/lib/i18n";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadAudit } from "./__audit.server";
import { FilterField } from "./__filter-field";
import * as o from "./ops-admin.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.audit.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** The audit log (issue 29, decision 043): every change an operator made, newest first; read-only. */
export function loader(args: LoaderFunctionArgs) {
  return loadAudit(args);
}

/** A value of a row's before or after, as compact JSON (nothing: a dash), with a place to wrap after each comma. */
function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <code className={o.json}>—</code>;
  const parts = JSON.stringify(value).split(",");
  return (
    <code className={o.json}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? (
            <>
              ,<wbr />
            </>
          ) : null}
        </Fragment>
      ))}
    </code>
  );
}

export default function AuditPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { values, errors, refusal, page, actions, roles, before } = useLoaderData<typeof loader>();
  const filterQuery = new URLSearchParams(values as Record<string, string>).toString();
  const withQuery = (path: string, extra: Record<string, string> = {}) => {
    const query = new URLSearchParams({ ...(values as Record<string, string>), ...extra }).toString();
    return query ? `${path}?${query}` : path;
  };
  const fieldError = (name: string) => (errors as Record<string, string> | null)?.[name];
  const input = (
    name: "operator" | "action" | "target" | "from" | "to",
    label: string,
    type: "text" | "datetime-local",
    extra: { list?: string; hint?: string } = {},
  ) => {
    return (
      <FilterField id={`ops-audit-${name}`} label={label} error={fieldError(name)} hintId={extra.hint ? "ops-audit-utc" : undefined} className={o.filterField}>
        {(control) => (
          <input
            {...control}
            name={name}
            type={type}
            step={type === "datetime-local" ? 60 : undefined}
            defaultValue={(values as Record<string, string>)[name] ?? ""}
            list={extra.list}
            maxLength={type === "text" ? (name === "target" ? 80 : 60) : undefined}
            autoComplete="off"
            className={f.input}
          />
        )}
      </FilterField>
    );
  };
  const role = (value: string) => ((roles as readonly string[]).includes(value) ? t(`ops.roles.${value}`) : value);
  return (
    <section className={s.card} aria-labelledby="ops-audit-title">
      <h1 id="ops-audit-title" className={s.title}>
        {t("ops.audit.title")}
      </h1>
      <p className={s.muted} style={{ marginBottom: 16 }}>
        {t("ops.audit.notice")}
      </p>
      {/* Keyed by the filter: its fields are uncontrolled, so a new filter remounts them with its values. */}
      <Form method="get" className={o.filters} key={filterQuery} aria-label={t("ops.audit.filter")}>
        {input("operator", t("ops.audit.operator"), "text")}
        {input("action", t("ops.audit.action"), "text", { list: "ops-audit-actions" })}
        <datalist id="ops-audit-actions">
          {actions.map((action) => (
            <option key={action} value={action} />
          ))}
        </datalist>
        {input("target", t("ops.audit.target"), "text")}
        {input("from", t("ops.audit.from"), "datetime-local", { hint: "utc" })}
        {input("to", t("ops.audit.to"), "datetime-local", { hint: "utc" })}
        <p id="ops-audit-utc" className={`${f.hint} ${o.utcHint}`}>
          {t("ops.audit.utc_hint")}
        </p>
        <div className={o.filterActions}>
          <button type="submit" className={s.linkButton}>
            {t("ops.audit.search")}
          </button>
          <Link to="/ops/audit" className={s.linkButton}>
            {t("ops.audit.reset")}
          </Link>
          {page ? (
            // A plain link to a download (a resource route): works without JavaScript.
            <a href={withQuery("/ops/audit.csv")} className={s.linkButton} download>
              {t("ops.audit.export")}
            </a>
          ) : null}
        </div>
      </Form>
      {fieldError("before") ? (
        <p className={o.alert} role="alert">
          {t(fieldError("before")!)} <Link to={withQuery("/ops/audit")}>{t("ops.audit.newest")}</Link>
        </p>
      ) : null}
      {errors && !fieldError("before") ? (
        <p className={o.alert} role="alert">
          {t("ops.audit.bad_filter")}
        </p>
      ) : null}
      {refusal ? (
        <p className={o.alert} role="alert">
          {formErrorText(refusal, t)}
        </p>
      ) : null}
      {page ? (
        <>
          <DataTable
            rows={page.rows}
            rowKey={(row) => row.id}
            name={{ labelledBy: "ops-audit-title" }}
            empty={t(Object.keys(values).length ? "ops.audit.empty_filtered" : "ops.audit.empty")}
            testId="ops-audit"
            columns={[
              {
                key: "time",
                header: t("ops.audit.time"),
                kind: "time",
                cell: (row) => <time dateTime={row.at}>{formatDateTimeSeconds(row.at, lang)}</time>,
              },
              { key: "operator", header: t("ops.audit.operator"), cell: (row) => row.operator },
              { key: "role", header: t("ops.audit.role"), cell: (row) => role(row.role) },
              { key: "via", header: t("ops.audit.via"), cell: (row) => t(`ops.audit.via_${row.via}`) },
              { key: "action", header: t("ops.audit.action"), cell: (row) => <code className={o.token}>{row.action}</code> },
              { key: "target", header: t("ops.audit.target"), cell: (row) => <code className={o.token}>{row.target}</code> },
              {
                key: "change",
                header: t("ops.audit.change"),
                kind: "status",
                cell: (row) => (
                  <div className={o.change}>
                    <Json value={row.before} />
                    <span aria-label={t("ops.audit.changed_to")} role="img">
                      →
                    </span>
                    <Json value={row.after} />
                  </div>
                ),
              },
              { key: "address", header: t("ops.audit.address"), cell: (row) => row.address || "—" },
            ]}
          />
          {before || page.next ? (
            <nav className={o.pager} aria-label={t("ops.audit.pages")}>
              {before ? <Link to={withQuery("/ops/audit")}>{t("ops.audit.newest")}</Link> : null}
              {page.next ? (
                <Link to={withQuery("/ops/audit", { before: page.next })} rel="next">
                  {t("ops.audit.next")}
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
