import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { MEMBER_SEARCH_ROWS } from "#protocol/endpoints/members-admin";
import { DataTable } from "~/components/data-table";
import * as f from "~/components/forms.css";
import { formatDateTime } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadMembers } from "./__members.server";
import { MEMBERS_PAGE, MemberStates } from "./__member-states";
import * as m from "./members.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.members.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** Members found by uid, e-mail or phone (issue 29); without a search, the newest. */
export function loader(args: LoaderFunctionArgs) {
  return loadMembers(args);
}

export default function OpsMembersPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { q, error, members } = useLoaderData<typeof loader>();
  return (
    <section className={s.card} aria-labelledby="ops-members-title">
      <h1 id="ops-members-title" className={s.title}>
        {t("ops.members.title")}
      </h1>
      <Form method="get" className={s.filters} role="search" aria-label={t("ops.members.search_label")}>
        <div className={`${f.field} ${m.searchField}`}>
          <label htmlFor="ops-members-q" className={f.label}>
            {t("ops.members.search")}
          </label>
          <input
            id="ops-members-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={100}
            className={f.input}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "ops-members-q-error ops-members-q-hint" : "ops-members-q-hint"}
          />
          {error ? (
            <p id="ops-members-q-error" className={f.errors} role="alert">
              {t(error, { field: t("ops.members.search") })}
            </p>
          ) : null}
        </div>
        <button type="submit" className={s.linkButton}>
          {t("ops.members.find")}
        </button>
        {q ? (
          <Link to={MEMBERS_PAGE} className={s.linkButton}>
            {t("ops.members.clear")}
          </Link>
        ) : null}
        <p id="ops-members-q-hint" className={`${f.hint} ${m.searchHint}`}>
          {t("ops.members.search_hint")}
        </p>
      </Form>
      <p className={s.muted} id="ops-members-caption">
        {!q
          ? t("ops.members.newest")
          : members.length >= MEMBER_SEARCH_ROWS
            ? t("ops.members.found_many", { count: members.length, q })
            : t("ops.members.found", { count: members.length, q })}
      </p>
      <DataTable
        rows={members}
        rowKey={(row) => row.uid}
        name={{ labelledBy: "ops-members-caption" }}
        empty={t("ops.members.none")}
        reflow="cards"
        testId="ops-members"
        columns={[
          {
            key: "uid",
            header: t("ops.members.uid"),
            cell: (row) => (
              <Link to={`${MEMBERS_PAGE}/${row.uid}`} className={m.link} aria-label={t("ops.members.open", { uid: row.uid })}>
                {row.uid}
              </Link>
            ),
          },
          { key: "email", header: t("ops.members.email"), cell: (row) => row.email ?? "—" },
          { key: "phone", header: t("ops.members.phone"), cell: (row) => row.phone ?? "—" },
          { key: "state", header: t("ops.members.state"), kind: "status", cell: (row) => <MemberStates member={row} /> },
          {
            key: "joined",
            header: t("ops.members.joined"),
            kind: "time",
            cell: (row) => <time dateTime={row.createdAt}>{formatDateTime(row.createdAt, lang)}</time>,
          },
        ]}
      />
    </section>
  );
}
