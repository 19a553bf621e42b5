import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { endpoints } from "#protocol/endpoints";
import { outboxQuerySchema } from "#protocol/endpoints/operators";
import { DataTable } from "~/components/data-table";
import * as f from "~/components/forms.css";
import { formatDateTime } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { pageTitle, useShell } from "~/lib/use-shell";
import { olderPageOf, readListFilter } from "~/services/ops/list-filter.server";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { FilterAlert, FilterField } from "./__filter-field";
import * as m from "./members.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.outbox.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

const PAGE = "/ops/outbox";
const STATES = ["waiting", "delivered", "failed"] as const;

/**
 * The outbox (issue 29; admins): every e-mail and text message with its delivery, by destination
 * and state. A filter value that cannot be one is said so and asks the engine for nothing.
 */
export function loader(args: LoaderFunctionArgs) {
  return withOperator(args, "mailbox.read", async ({ ops, request }) => {
    const { values, errors, query, paged } = readListFilter(outboxQuerySchema, new URL(request.url).searchParams, ["destination", "state"]);
    const page = query ? await ops.call(endpoints.opsOutbox, { query }) : { rows: [], next: null, bodiesShown: false };
    return data({ values, errors, page, older: olderPageOf(PAGE, values, page.next), paged }, { headers: OPS_HEADERS });
  });
}

export default function OpsOutboxPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { values, errors, page, older, paged } = useLoaderData<typeof loader>();
  const error = (name: string) => (errors as Record<string, string>)[name];
  type Row = (typeof page.rows)[number];
  return (
    <section className={s.card} aria-labelledby="ops-outbox-title">
      <h1 id="ops-outbox-title" className={s.title}>
        {t("ops.outbox.title")}
      </h1>
      <Form method="get" className={s.filters} aria-label={t("ops.outbox.filter")}>
        <FilterField id="ops-outbox-destination" label={t("ops.outbox.destination_label")} error={error("destination")} className={m.searchField}>
          {(control) => <input {...control} name="destination" defaultValue={values.destination ?? ""} maxLength={270} className={f.input} />}
        </FilterField>
        <FilterField id="ops-outbox-state" label={t("ops.members.state")} error={error("state")}>
          {(control) => (
            <select {...control} name="state" defaultValue={values.state ?? ""} className={f.input}>
              <option value="">{t("ops.deposits.all")}</option>
              {STATES.map((state) => (
                <option key={state} value={state}>
                  {t(`ops.outbox.state_${state}`)}
                </option>
              ))}
            </select>
          )}
        </FilterField>
        <button type="submit" className={s.linkButton}>
          {t("ops.deposits.apply")}
        </button>
        {values.destination || values.state || paged ? (
          <Link to={PAGE} className={s.linkButton}>
            {t("ops.members.clear")}
          </Link>
        ) : null}
      </Form>
      <FilterAlert errors={errors} />
      <p className={s.muted} id="ops-outbox-caption">
        {t(page.bodiesShown ? "ops.outbox.bodies_shown" : "ops.outbox.bodies_hidden")}
      </p>
      <DataTable
        rows={page.rows}
        rowKey={(row: Row) => row.id}
        name={{ labelledBy: "ops-outbox-caption" }}
        empty={t("ops.outbox.none")}
        look="compact"
        columns={[
          {
            key: "time",
            header: t("ops.members.order_time"),
            kind: "time",
            cell: (row: Row) => <time dateTime={row.createdAt}>{formatDateTime(row.createdAt, lang)}</time>,
          },
          { key: "channel", header: t("ops.outbox.channel"), cell: (row: Row) => t(`ops.outbox.channel_${row.channel}`) },
          { key: "destination", header: t("ops.outbox.destination_label"), cell: (row: Row) => <span className={m.mono}>{row.destination}</span> },
          {
            key: "subject",
            header: t("ops.outbox.subject"),
            cell: (row: Row) =>
              row.body === null ? (
                row.subject
              ) : (
                <details>
                  <summary>{row.subject}</summary>
                  <pre className={s.code}>{row.body}</pre>
                </details>
              ),
          },
          {
            key: "state",
            header: t("ops.members.state"),
            kind: "status",
            cell: (row: Row) => (
              <>
                {t(`ops.outbox.state_${row.state}`)}
                {row.state !== "delivered" && row.attempts > 0 ? ` · ${t("ops.outbox.attempts", { count: row.attempts })}` : ""}
                {row.error && row.state !== "delivered" ? <span className={m.mono}> · {row.error}</span> : null}
              </>
            ),
          },
        ]}
      />
      {older ? (
        <p style={{ marginTop: 12 }}>
          <Link to={older} className={s.linkButton}>
            {t("ops.outbox.older")}
          </Link>
        </p>
      ) : null}
    </section>
  );
}
