import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { formErrorText } from "~/lib/forms/form-error";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadMargin, marginAction, type PoolField, type PoolRefusal } from "./__margin.server";
import * as m from "./markets.css";
import * as o from "./ops-admin.css";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.margin.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** Margin's lending pools (issue 31): `markets.read` sees what they lend and earned, `markets.change` sets their rates and limits. */
export function loader(args: LoaderFunctionArgs) {
  return loadMargin(args);
}

export function action(args: ActionFunctionArgs) {
  return marginAction(args);
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;

// The server module's list, named again here: a route's component imports no values from a `.server` module.
const POOL_FIELDS: PoolField[] = ["hourlyRate", "limit", "minBorrow"];
const fieldId = (coin: string, field: PoolField) => `ops-pool-${coin}-${field}`;

export default function OpsMarginPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const { pools, mayChange, mark } = useLoaderData<typeof loader>();
  const refusal = (useActionData<typeof action>() as { refusal: PoolRefusal } | undefined)?.refusal;
  const navigation = useNavigation();
  const label = (field: PoolField) => t(`ops.margin.field_${field}`);
  const amount = (value: string) => nf.display(value, { abbreviate: false });
  return (
    <section className={s.card} aria-labelledby="ops-margin-title">
      <h1 id="ops-margin-title" className={s.title}>
        {t("ops.margin.title")}
      </h1>
      <p className={`${s.muted} ${o.note}`}>{t("ops.margin.notice")}</p>
      {mayChange ? null : <p className={`${s.muted} ${o.note}`}>{t("ops.markets.read_only")}</p>}
      {refusal?.error ? (
        <div className={o.alert} role="alert" data-testid="ops-margin-refusal">
          <p className={o.alertLine}>
            {refusal.coin ? <strong>{refusal.coin}: </strong> : null}
            {formErrorText(refusal.error, t)}
          </p>
        </div>
      ) : null}
      <div className={m.table}>
        <DataTable
          rows={pools}
          rowKey={(p) => p.coin}
          name={{ labelledBy: "ops-margin-title" }}
          empty={t("ops.margin.empty")}
          reflow="cards"
          testId="ops-margin-pools"
          columns={[
            { key: "coin", header: t("ops.margin.col_coin"), cell: (p) => <span className={o.strong}>{p.coin}</span> },
            {
              key: "rate",
              header: t("ops.margin.col_rate"),
              cell: (p) => (
                <span className={q.stack}>
                  <span className={q.nowrap}>{t("ops.margin.hourly", { rate: p.hourlyRate })}</span>
                  <span className={q.small}>{t("ops.margin.yearly", { rate: p.yearlyRate })}</span>
                </span>
              ),
            },
            {
              key: "lent",
              header: t("ops.margin.col_lent"),
              cell: (p) => (
                <span className={q.stack}>
                  <span className={q.nowrap}>{t("ops.margin.lent", { lent: amount(p.lent), limit: amount(p.limit) })}</span>
                  <span className={q.small}>{t("ops.margin.min", { min: amount(p.minBorrow) })}</span>
                </span>
              ),
            },
            { key: "earned", kind: "number", header: t("ops.margin.col_earned"), cell: (p) => amount(p.earned) },
            mayChange && {
              key: "change",
              header: t("ops.markets.changes"),
              wide: true,
              cell: (p) => {
                const mine = refusal?.coin === p.coin ? refusal : undefined;
                const shown: Record<PoolField, string> = { hourlyRate: p.hourlyRate, limit: p.limit, minBorrow: p.minBorrow };
                return (
                  <details className={q.fold} open={mine ? true : undefined}>
                    <summary className={m.foldSummary}>{t("ops.markets.rules_open")}</summary>
                    <Form method="post" className={m.rulesForm} aria-label={t("ops.margin.form_named", { coin: p.coin })}>
                      <input type="hidden" name="coin" value={p.coin} />
                      {POOL_FIELDS.map((field) => {
                        const id = fieldId(p.coin, field);
                        const error = mine?.fields?.[field];
                        return (
                          <div className={m.field} key={field}>
                            <label htmlFor={id} className={q.label}>
                              {label(field)}
                            </label>
                            <input
                              id={id}
                              name={field}
                              type="text"
                              inputMode="decimal"
                              autoComplete="off"
                              spellCheck={false}
                              required
                              defaultValue={mine?.values?.[field] ?? shown[field].replace(".", mark)}
                              className={`${s.smallInput} ${m.input}`}
                              aria-invalid={error ? true : undefined}
                              aria-describedby={error ? `${id}-error` : undefined}
                            />
                            {error ? (
                              <p id={`${id}-error`} className={m.error}>
                                {formErrorText(error, t, { field: label(field), max: field === "hourlyRate" ? 12 : 8, mark, example: "0.00001" })}
                              </p>
                            ) : null}
                          </div>
                        );
                      })}
                      <button
                        type="submit"
                        className={q.approve}
                        aria-label={t("ops.margin.save_named", { coin: p.coin })}
                        disabled={navigation.state === "submitting" && navigation.formData?.get("coin") === p.coin}
                      >
                        {t("ops.markets.save")}
                      </button>
                    </Form>
                  </details>
                );
              },
            },
          ]}
        />
      </div>
    </section>
  );
}
