import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { endpoints } from "#protocol/endpoints";
import { DataTable } from "~/components/data-table";
import * as f from "~/components/forms.css";
import { formatDateTime } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
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
    const search = new URL(request.url).searchParams;
    const destination = (search.get("destination") ?? "").trim().slice(0, 300);
    const state = search.get("state") ?? "";
    const before = search.get("before") ?? "";
    const error =
      destination && (destination.length < 3 || destination.length > 270)
        ? "ops.outbox.destination"
        : state && !(STATES as readonly string[]).includes(state)
          ? "ops.errors.invalid"
          : before && !/^\d{1,18}$/.test(before)
            ? "ops.errors.page"
            : null;
    const query = { ...(destination && { destination }), ...(state && { state: state as (typeof STATES)[number] }), ...(before && { before }) };
    const page = error ? { rows: [], next: null, bodiesShown: false } : await ops.call(endpoints.opsOutbox, { query });
    return data({ values: { destination, state }, error, page, paged: before !== "" }, { headers: OPS_HEADERS });
  });
}

export default function OpsOutboxPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { values, error, page, paged } = useLoaderData<typeof loader>();
  const older = page.next
    ? `${PAGE}?${new URLSearchParams({ ...(values.destination && { destination: values.destination }), ...(values.state && { state: values.state }), before: page.next }).toString()}`
    : null;
  type Row = (typeof page.rows)[number];
  return (
    <section className={s.card} aria-labelledby="ops-outbox-title">
      <h1 id="ops-outbox-title" className={s.title}>
        {t("ops.outbox.title")}
      </h1>
      <Form method="get" className={s.filters} aria-label={t("ops.outbox.filter")}>
        <div className={`${f.field} ${m.searchField}`}>
          <label htmlFor="ops-outbox-destination" className={f.label}>
            {t("ops.outbox.destination_label")}
          </label>
          <input
            id="ops-outbox-destination"
            name="destination"
            defaultValue={values.destination}
            maxLength={270}
            className={f.input}
            aria-invalid={error === "ops.outbox.destination" || undefined}
            aria-describedby={error ? "ops-outbox-error" : undefined}
          />
        </div>
        <div className={f.field}>
          <label htmlFor="ops-outbox-state" className={f.label}>
            {t("ops.members.state")}
          </label>
          <select id="ops-outbox-state" name="state" defaultValue={values.state} className={f.input}>
            <option value="">{t("ops.deposits.all")}</option>
            {STATES.map((state) => (
              <option key={state} value={state}>
                {t(`ops.outbox.state_${state}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={s.linkButton}>
          {t("ops.deposits.apply")}
        </button>
        {values.destination || values.state || paged ? (
          <Link to={PAGE} className={s.linkButton}>
            {t("ops.members.clear")}
          </Link>
        ) : null}
      </Form>
      {error ? (
        <p id="ops-outbox-error" className={f.errors} role="alert">
          {t(error)}
        </p>
      ) : null}
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
