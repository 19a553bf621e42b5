import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { OPEN_ACCOUNT_CODES, ACCOUNTS } from "#protocol/accounts";
import { BILL_TYPES, FIRST_DAY, LAST_DAY } from "#protocol/wallet-lists";
import { DataTable } from "~/components/data-table";
import { PageErrorBoundary } from "~/components/error-page";
import * as f from "~/components/forms.css";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadBills } from "~/services/wallet/wallet.server";
import * as s from "~/styles/account-center.css";
import * as w from "~/styles/wallet.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "wallet.bills.title") }];

/** The member's bills (spec §2 wallet `bills`): every change of a balance, filtered by a GET form. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine, request }) => loadBills(engine, request));
}

export default function BillsPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const { values, errors, coins, page } = useLoaderData<typeof loader>();
  const query = new URLSearchParams(values);
  const hrefFor = (n: number) => `?${new URLSearchParams({ ...values, page: String(n) })}`;
  const error = (field: string) =>
    errors?.[field] ? (
      <p id={`bills-${field}-error`} className={f.errors}>
        {t("wallet.bills.bad_filter")}
      </p>
    ) : null;
  const select = (name: string, label: string, options: Array<[string, string]>) => (
    <div className={f.field}>
      <label htmlFor={`bills-${name}`} className={f.label}>
        {label}
      </label>
      <select
        id={`bills-${name}`}
        name={name}
        defaultValue={values[name] ?? ""}
        className={f.input}
        aria-invalid={errors?.[name] ? true : undefined}
        aria-describedby={errors?.[name] ? `bills-${name}-error` : undefined}
      >
        <option value="">{t("wallet.bills.all")}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {error(name)}
    </div>
  );
  const day = (name: "from" | "to", label: string) => (
    <div className={f.field}>
      <label htmlFor={`bills-${name}`} className={f.label}>
        {label}
      </label>
      <input
        id={`bills-${name}`}
        name={name}
        type="date"
        min={FIRST_DAY}
        max={LAST_DAY}
        defaultValue={values[name] ?? ""}
        className={f.input}
        aria-invalid={errors?.[name] ? true : undefined}
        aria-describedby={errors?.[name] ? `bills-${name}-error` : undefined}
      />
      {error(name)}
    </div>
  );
  return (
    <section className={s.card} aria-labelledby="bills-title">
      <h1 id="bills-title" className={s.title}>
        {t("wallet.bills.title")}
      </h1>
      {/* Keyed by the filter: its fields are uncontrolled, so a new filter remounts them with its values. */}
      <Form method="get" className={w.filters} key={query.toString()} aria-label={t("wallet.bills.filter")}>
        {select(
          "coin",
          t("wallet.bills.coin"),
          coins.map((c) => [c, c]),
        )}
        {select(
          "type",
          t("wallet.bills.type"),
          BILL_TYPES.map((type) => [type, t(`wallet.bills.types.${type}`)]),
        )}
        {select(
          "account",
          t("wallet.bills.account"),
          OPEN_ACCOUNT_CODES.map((code) => [code, t(`wallet.account.${ACCOUNTS[code]}`)]),
        )}
        {day("from", t("wallet.bills.from"))}
        {day("to", t("wallet.bills.to"))}
        <div className={w.filterActionsRow}>
          <button type="submit" className={f.primary}>
            {t("wallet.bills.search")}
          </button>
          <Link to="/account/wallet/bills" className={s.action}>
            {t("wallet.bills.reset")}
          </Link>
          {page && page.total > 0 ? (
            // A plain link to a download: works without JavaScript.
            <a href={`/account/wallet/bills/export?${query.toString()}`} className={s.action} download>
              {t("wallet.bills.export")}
            </a>
          ) : null}
        </div>
      </Form>
      {page ? (
        <DataTable
          rows={page.records}
          rowKey={(line) => line.id}
          name={{ labelledBy: "bills-title" }}
          empty={t(Object.keys(values).length ? "wallet.bills.empty_filtered" : "wallet.bills.empty")}
          testId="bills"
          pager={{ current: page.current, pages: page.pages, total: page.total, hrefFor }}
          columns={[
            {
              key: "time",
              header: t("wallet.bills.time"),
              kind: "time",
              cell: (l) => <time dateTime={l.time}>{l.time.slice(0, 19).replace("T", " ")} UTC</time>,
            },
            { key: "account", header: t("wallet.bills.account"), cell: (l) => t(`wallet.account.${ACCOUNTS[l.accountCode]}`) },
            { key: "type", header: t("wallet.bills.type"), cell: (l) => t(`wallet.bills.types.${l.type}`) },
            {
              key: "amount",
              header: t("wallet.bills.amount"),
              kind: "number",
              cell: (l) => (
                <span className={l.amount.startsWith("-") ? w.negative : w.positive}>
                  {l.amount.startsWith("-") ? "−" : "+"}
                  {nf.display(l.amount.replace(/^-/, ""), { abbreviate: false })} {l.coin}
                </span>
              ),
            },
            { key: "reference", header: t("wallet.bills.reference"), cell: (l) => <span className={s.muted}>{l.reference}</span> },
          ]}
        />
      ) : null}
    </section>
  );
}

export const ErrorBoundary = PageErrorBoundary;
