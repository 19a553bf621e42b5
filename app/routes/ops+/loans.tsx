import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadLoans, loansAction, type ProductField, type ProductRefusal } from "./__loans.server";
import { RulesPageHead, RulesRowForm } from "./__rules-row";
import * as m from "./markets.css";
import * as o from "./ops-admin.css";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.loans.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** Crypto loans' products (issue 31, decision 051): `markets.read` sees them and what they lend, `markets.change` sets their rates, LTVs and bounds. */
export function loader(args: LoaderFunctionArgs) {
  return loadLoans(args);
}

export function action(args: ActionFunctionArgs) {
  return loansAction(args);
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;

// The server module's list, named again here: a route's component imports no values from a `.server` module.
const PRODUCT_FIELDS: ProductField[] = ["hourlyRate", "overdueRate", "initialLtv", "callLtv", "liquidationLtv", "minAmount", "maxAmount"];

export default function OpsLoansPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const { products, mayChange, mark } = useLoaderData<typeof loader>();
  const refusal = (useActionData<typeof action>() as { refusal: ProductRefusal } | undefined)?.refusal;
  const label = (field: ProductField) => t(`ops.loans.field_${field}`);
  const amount = (value: string) => nf.display(value, { abbreviate: false });
  return (
    <section className={s.card} aria-labelledby="ops-loans-title">
      <RulesPageHead
        titleId="ops-loans-title"
        title={t("ops.loans.title")}
        notice={t("ops.loans.notice")}
        mayChange={mayChange}
        refusal={refusal}
        refusedRow={refusal?.productId}
      />
      <div className={m.table}>
        <DataTable
          rows={products}
          rowKey={(p) => p.productId}
          name={{ labelledBy: "ops-loans-title" }}
          empty={t("ops.loans.empty")}
          reflow="cards"
          testId="ops-loan-products"
          columns={[
            {
              key: "product",
              header: t("ops.loans.col_product"),
              cell: (p) => (
                <span className={q.stack}>
                  <span className={o.strong}>{p.productId}</span>
                  <span className={q.small}>
                    {p.termDays === 0 ? t("loans.flexible") : t("loans.days", { count: p.termDays })}
                    {p.enabled ? "" : ` · ${t("ops.loans.disabled")}`}
                  </span>
                </span>
              ),
            },
            {
              key: "rate",
              header: t("ops.loans.col_rate"),
              cell: (p) => (
                <span className={q.stack}>
                  <span className={q.nowrap}>{t("ops.margin.hourly", { rate: p.hourlyRate })}</span>
                  <span className={q.small}>{t("ops.margin.yearly", { rate: p.yearlyRate })}</span>
                </span>
              ),
            },
            { key: "ltv", header: t("ops.loans.col_ltv"), cell: (p) => `${p.initialLtv} / ${p.callLtv} / ${p.liquidationLtv}` },
            {
              key: "lent",
              header: t("ops.loans.col_lent"),
              cell: (p) => (
                <span className={q.stack}>
                  <span className={q.nowrap}>{t("ops.loans.lent", { lent: amount(p.lent), coin: p.loanCoin, count: p.openLoans })}</span>
                  <span className={q.small}>{t("loans.bounds", { min: amount(p.minAmount), max: amount(p.maxAmount), coin: p.loanCoin })}</span>
                </span>
              ),
            },
            mayChange && {
              key: "change",
              header: t("ops.markets.changes"),
              wide: true,
              cell: (p) => (
                <RulesRowForm
                  keyName="productId"
                  keyValue={p.productId}
                  fields={PRODUCT_FIELDS}
                  label={label}
                  shown={{
                    hourlyRate: p.hourlyRate,
                    overdueRate: p.overdueHourlyRate,
                    initialLtv: p.initialLtv,
                    callLtv: p.callLtv,
                    liquidationLtv: p.liquidationLtv,
                    minAmount: p.minAmount,
                    maxAmount: p.maxAmount,
                  }}
                  refusal={refusal?.productId === p.productId ? refusal : undefined}
                  mark={mark}
                  decimalsOf={(field) => (field.endsWith("Rate") ? 12 : field.endsWith("Ltv") ? 4 : 8)}
                  example="0.65"
                  formLabel={t("ops.loans.form_named", { product: p.productId })}
                  saveLabel={t("ops.loans.save_named", { product: p.productId })}
                >
                  <label className={q.label}>
                    <input type="checkbox" name="enabled" defaultChecked={p.enabled} /> {t("ops.loans.field_enabled")}
                  </label>
                </RulesRowForm>
              ),
            },
          ]}
        />
      </div>
    </section>
  );
}
