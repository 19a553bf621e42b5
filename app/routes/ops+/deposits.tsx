import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { ErrorList, FormErrors } from "~/components/forms";
import * as f from "~/components/forms.css";
import { formatDateTime } from "~/lib/dates";
import { opsCreditCheck } from "~/lib/forms/checks/ops";
import { getFormProps, getInputProps, getSelectProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { FilterAlert, FilterField } from "./__filter-field";
import { DEPOSITS_PAGE, DepositState } from "./__deposit-states";
import { depositsAction, loadDeposits } from "./__deposits.server";
import { MEMBERS_PAGE } from "./__member-states";
import * as m from "./members.css";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.deposits.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** Every member's deposits from the chains (issue 29), filtered; the credit form for finance. */
export function loader(args: LoaderFunctionArgs) {
  return loadDeposits(args);
}

/** A deposit credited by hand, once per reference (the engine checks the role again). */
export function action(args: ActionFunctionArgs) {
  return depositsAction(args);
}

/** After a refused credit too: a new reference only after a credit went through. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, actionResult, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? actionResult === undefined : defaultShouldRevalidate;

/** The credit form: member, coin, account, amount and a reference that makes it once only. */
function CreditForm({ coins, reference }: { coins: readonly string[]; reference: string }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const reply = useActionData<typeof action>() as { result: SubmissionResult<string[]> } | undefined;
  const [form, fields] = useExchangeForm(opsCreditCheck, { id: "ops-credit", lastResult: reply?.result, defaultValue: { reference, account: "funding" } });
  const sending = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const field = (name: "uid" | "amount" | "reference", label: string, hint?: string) => {
    const meta = fields[name];
    const hintId = hint ? `${meta.id}-hint` : undefined;
    return (
      <div className={f.field}>
        <label htmlFor={meta.id} className={f.label}>
          {label}
        </label>
        <input
          {...getInputProps(meta, { type: "text" })}
          className={f.input}
          inputMode={name === "reference" ? undefined : "decimal"}
          autoComplete="off"
          aria-describedby={[meta.errors?.length ? meta.errorId : null, hintId].filter(Boolean).join(" ") || undefined}
        />
        {hint ? (
          <p id={hintId} className={f.hint}>
            {hint}
          </p>
        ) : null}
        <ErrorList id={meta.errorId} errors={meta.errors} />
      </div>
    );
  };
  return (
    <Form method="post" {...getFormProps(form)} className={`${m.change} ${m.narrowChange}`} aria-labelledby="ops-credit-title">
      <h2 id="ops-credit-title" className={m.changeTitle}>
        {t("ops.deposits.credit_title")}
      </h2>
      <p className={q.hint}>{t("ops.deposits.credit_text")}</p>
      <FormErrors id={form.errorId} errors={form.errors} />
      {field("uid", t("ops.members.uid"))}
      <div className={f.field}>
        <label htmlFor={fields.coin.id} className={f.label}>
          {t("ops.members.coin")}
        </label>
        <select {...getSelectProps(fields.coin)} className={f.input}>
          <option value="">{t("ops.deposits.choose_coin")}</option>
          {coins.map((coin) => (
            <option key={coin} value={coin}>
              {coin}
            </option>
          ))}
        </select>
        <ErrorList id={fields.coin.errorId} errors={fields.coin.errors} />
      </div>
      <div className={f.field}>
        <label htmlFor={fields.account.id} className={f.label}>
          {t("ops.members.account")}
        </label>
        <select {...getSelectProps(fields.account)} className={f.input}>
          <option value="funding">{t("ops.members.account_funding")}</option>
          <option value="spot">{t("ops.members.account_spot")}</option>
        </select>
        <ErrorList id={fields.account.errorId} errors={fields.account.errors} />
      </div>
      {field("amount", t("ops.members.order_amount"))}
      {field("reference", t("ops.deposits.reference_label"), t("ops.deposits.reference_hint"))}
      <div className={q.buttons}>
        <button type="submit" className={q.approve} disabled={sending} aria-busy={sending || undefined}>
          {t("ops.deposits.credit")}
        </button>
      </div>
    </Form>
  );
}

export default function OpsDepositsPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { values, errors, page, older, coins, states, mayCredit, reference, paged } = useLoaderData<typeof loader>();
  const error = (name: string) => (errors as Record<string, string>)[name];
  type Row = (typeof page.rows)[number];
  return (
    <>
      <section className={s.card} aria-labelledby="ops-deposits-title">
        <h1 id="ops-deposits-title" className={s.title}>
          {t("ops.deposits.title")}
        </h1>
        <Form method="get" className={s.filters} aria-label={t("ops.deposits.filter")}>
          <FilterField id="ops-deposits-uid" label={t("ops.members.uid")} error={error("uid")}>
            {(control) => (
              <input {...control} name="uid" defaultValue={values.uid ?? ""} inputMode="numeric" maxLength={8} className={`${f.input} ${s.smallInput}`} />
            )}
          </FilterField>
          <FilterField id="ops-deposits-coin" label={t("ops.members.coin")} error={error("coin")}>
            {(control) => (
              <select {...control} name="coin" defaultValue={values.coin ?? ""} className={f.input}>
                <option value="">{t("ops.deposits.all")}</option>
                {coins.map((coin) => (
                  <option key={coin} value={coin}>
                    {coin}
                  </option>
                ))}
              </select>
            )}
          </FilterField>
          <FilterField id="ops-deposits-state" label={t("ops.members.state")} error={error("state")}>
            {(control) => (
              <select {...control} name="state" defaultValue={values.state ?? ""} className={f.input}>
                <option value="">{t("ops.deposits.all")}</option>
                {states.map((state) => (
                  <option key={state} value={state}>
                    {t(`ops.deposits.state_${state}`)}
                  </option>
                ))}
              </select>
            )}
          </FilterField>
          <button type="submit" className={s.linkButton}>
            {t("ops.deposits.apply")}
          </button>
          {Object.keys(values).length > 0 || paged ? (
            <Link to={DEPOSITS_PAGE} className={s.linkButton}>
              {t("ops.members.clear")}
            </Link>
          ) : null}
        </Form>
        <FilterAlert errors={errors} />
        <p className={s.muted} id="ops-deposits-list">
          {t("ops.deposits.intro")}
        </p>
        <DataTable
          rows={page.rows}
          rowKey={(row: Row) => row.id}
          name={{ labelledBy: "ops-deposits-list" }}
          empty={t("ops.deposits.none")}
          look="compact"
          columns={[
            {
              key: "time",
              header: t("ops.members.order_time"),
              kind: "time",
              cell: (row: Row) => <time dateTime={row.createdAt}>{formatDateTime(row.createdAt, lang)}</time>,
            },
            {
              key: "member",
              header: t("ops.menu.members"),
              cell: (row: Row) => (
                <Link to={`${MEMBERS_PAGE}/${row.uid}`} className={m.link}>
                  {row.uid}
                </Link>
              ),
            },
            { key: "coin", header: t("ops.members.coin"), cell: (row: Row) => `${row.coin} · ${row.network}` },
            { key: "amount", header: t("ops.members.order_amount"), kind: "number", cell: (row: Row) => row.amount },
            { key: "state", header: t("ops.members.state"), kind: "status", cell: (row: Row) => <DepositState deposit={row} /> },
            { key: "txid", header: t("ops.deposits.txid"), cell: (row: Row) => <span className={m.mono}>{row.txid}</span> },
            {
              key: "address",
              header: t("ops.deposits.address"),
              cell: (row: Row) => <span className={m.mono}>{row.tag ? `${row.address} · ${t("ops.deposits.tag", { tag: row.tag })}` : row.address}</span>,
            },
          ]}
        />
        {older ? (
          <p style={{ marginTop: 12 }}>
            <Link to={older} className={s.linkButton}>
              {t("ops.deposits.older")}
            </Link>
          </p>
        ) : null}
      </section>
      {mayCredit && reference ? (
        <section className={s.card}>
          <CreditForm coins={coins} reference={reference} />
        </section>
      ) : null}
    </>
  );
}
