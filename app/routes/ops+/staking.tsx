import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadStaking, stakingAction, type StakeField, type StakeRefusal } from "./__staking.server";
import { RulesPageHead, RulesRowForm } from "./__rules-row";
import * as m from "./markets.css";
import * as o from "./ops-admin.css";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.staking.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** Staking's products (issue 32, decision 052): `markets.read` sees them and what is staked, `markets.change` sets their rates, caps and bounds. */
export function loader(args: LoaderFunctionArgs) {
  return loadStaking(args);
}

export function action(args: ActionFunctionArgs) {
  return stakingAction(args);
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;

// The server module's list, named again here: a route's component imports no values from a `.server` module.
const STAKE_FIELDS: StakeField[] = ["yearlyRate", "cap", "minAmount", "maxPerMember"];

export default function OpsStakingPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const { products, mayChange, mark } = useLoaderData<typeof loader>();
  const refusal = (useActionData<typeof action>() as { refusal: StakeRefusal } | undefined)?.refusal;
  const label = (field: StakeField) => t(`ops.staking.field_${field}`);
  const amount = (value: string) => nf.display(value, { abbreviate: false });
  return (
    <section className={s.card} aria-labelledby="ops-staking-title">
      <RulesPageHead
        titleId="ops-staking-title"
        title={t("ops.staking.title")}
        notice={t("ops.staking.notice")}
        mayChange={mayChange}
        refusal={refusal}
        refusedRow={refusal?.productId}
      />
      <div className={m.table}>
        <DataTable
          rows={products}
          rowKey={(p) => p.productId}
          name={{ labelledBy: "ops-staking-title" }}
          empty={t("ops.staking.empty")}
          reflow="cards"
          testId="ops-stake-products"
          columns={[
            {
              key: "product",
              header: t("ops.staking.col_product"),
              cell: (p) => (
                <span className={q.stack}>
                  <span className={o.strong}>{p.productId}</span>
                  <span className={q.small}>
                    {p.termDays === 0 ? t("ops.staking.flexible") : t("ops.staking.days", { count: p.termDays })}
                    {p.enabled ? "" : ` · ${t("ops.staking.disabled")}`}
                  </span>
                </span>
              ),
            },
            { key: "rate", header: t("ops.staking.col_rate"), cell: (p) => t("ops.staking.yearly", { rate: p.yearlyRate }) },
            {
              key: "staked",
              header: t("ops.staking.col_staked"),
              cell: (p) => (
                <span className={q.stack}>
                  <span className={q.nowrap}>
                    {t("ops.staking.staked", { staked: amount(p.staked), cap: amount(p.cap), coin: p.coin, count: p.runningStakes })}
                  </span>
                  <span className={q.small}>{t("ops.staking.bounds", { min: amount(p.minAmount), max: amount(p.maxPerMember), coin: p.coin })}</span>
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
                  fields={STAKE_FIELDS}
                  label={label}
                  shown={{ yearlyRate: p.yearlyRate, cap: p.cap, minAmount: p.minAmount, maxPerMember: p.maxPerMember }}
                  refusal={refusal?.productId === p.productId ? refusal : undefined}
                  mark={mark}
                  decimalsOf={(field) => (field === "yearlyRate" ? 6 : 8)}
                  example="0.05"
                  formLabel={t("ops.staking.form_named", { product: p.productId })}
                  saveLabel={t("ops.staking.save_named", { product: p.productId })}
                >
                  <label className={q.label}>
                    <input type="checkbox" name="enabled" defaultChecked={p.enabled} /> {t("ops.staking.field_enabled")}
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
