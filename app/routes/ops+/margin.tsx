import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadMargin, marginAction, type PoolField, type PoolRefusal } from "./__margin.server";
import { RulesPageHead, RulesRowForm } from "./__rules-row";
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

export default function OpsMarginPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const { pools, pairs, offMargin, keys, mayChange, mark } = useLoaderData<typeof loader>();
  const refusal = (useActionData<typeof action>() as { refusal: PoolRefusal } | undefined)?.refusal;
  const label = (field: PoolField) => t(`ops.margin.field_${field}`);
  const amount = (value: string) => nf.display(value, { abbreviate: false });
  return (
    <>
      <section className={s.card} aria-labelledby="ops-margin-title">
        <RulesPageHead
          titleId="ops-margin-title"
          title={t("ops.margin.title")}
          notice={t("ops.margin.notice")}
          mayChange={mayChange}
          refusal={refusal}
          refusedRow={refusal?.coin}
        />
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
              {
                key: "earned",
                kind: "number",
                header: t("ops.margin.col_earned"),
                cell: (p) => (
                  <span className={q.stack}>
                    <span className={q.nowrap}>{amount(p.earned)}</span>
                    <span className={q.small}>{t("ops.margin.insurance", { amount: amount(p.insurance) })}</span>
                  </span>
                ),
              },
              mayChange && {
                key: "change",
                header: t("ops.markets.changes"),
                wide: true,
                cell: (p) => (
                  <RulesRowForm
                    keyName="coin"
                    keyValue={p.coin}
                    fields={POOL_FIELDS}
                    label={label}
                    shown={{ hourlyRate: p.hourlyRate, limit: p.limit, minBorrow: p.minBorrow }}
                    refusal={refusal?.coin === p.coin ? refusal : undefined}
                    mark={mark}
                    decimalsOf={(field) => (field === "hourlyRate" ? 12 : 8)}
                    example="0.00001"
                    formLabel={t("ops.margin.form_named", { coin: p.coin })}
                    saveLabel={t("ops.margin.save_named", { coin: p.coin })}
                  />
                ),
              },
              mayChange && {
                key: "insurance",
                header: t("ops.margin.col_insurance"),
                wide: true,
                cell: (p) => (
                  <details className={q.fold}>
                    <summary className={m.foldSummary}>{t("ops.margin.fund_open")}</summary>
                    <Form method="post" className={m.rulesForm} aria-label={t("ops.margin.fund_named", { coin: p.coin })}>
                      <input type="hidden" name="intent" value="insurance" />
                      <input type="hidden" name="coin" value={p.coin} />
                      <input type="hidden" name="idempotencyKey" value={keys[p.coin]} />
                      <div className={m.field}>
                        <label htmlFor={`ops-insurance-${p.coin}`} className={q.label}>
                          {t("ops.margin.field_amount")}
                        </label>
                        <input
                          id={`ops-insurance-${p.coin}`}
                          name="amount"
                          type="text"
                          inputMode="decimal"
                          autoComplete="off"
                          required
                          className={`${s.smallInput} ${m.input}`}
                        />
                      </div>
                      <button type="submit" className={q.approve}>
                        {t("ops.margin.fund_named", { coin: p.coin })}
                      </button>
                    </Form>
                  </details>
                ),
              },
            ]}
          />
        </div>
      </section>
      <MarginPairs pairs={pairs} offMargin={offMargin} mayChange={mayChange} />
    </>
  );
}

const LEVERAGES = [2, 3, 4, 5, 6, 7, 8, 9, 10];

/** The markets on margin with their highest isolated leverage; a markets operator changes it or puts another market on margin. */
function MarginPairs({ pairs, offMargin, mayChange }: { pairs: Array<{ symbolName: string; maxLeverage: number }>; offMargin: string[]; mayChange: boolean }) {
  const { t } = useTranslation();
  const leverageSelect = (id: string, value: number) => (
    <select id={id} name="maxLeverage" defaultValue={String(value)} className={`${s.smallInput} ${m.input}`}>
      {LEVERAGES.map((l) => (
        <option key={l} value={l}>
          {t("ops.margin.leverage_x", { leverage: l })}
        </option>
      ))}
    </select>
  );
  return (
    <section className={s.card} aria-labelledby="ops-margin-pairs-title">
      <h2 id="ops-margin-pairs-title" className={s.title}>
        {t("ops.margin.pairs_title")}
      </h2>
      <p className={`${s.muted} ${o.note}`}>{t("ops.margin.pairs_notice")}</p>
      <div className={m.table}>
        <DataTable
          rows={pairs}
          rowKey={(p) => p.symbolName}
          name={{ labelledBy: "ops-margin-pairs-title" }}
          empty={t("ops.margin.pairs_empty")}
          reflow="cards"
          testId="ops-margin-pairs"
          columns={[
            { key: "symbol", header: t("ops.margin.col_market"), cell: (p) => <span className={o.strong}>{p.symbolName}</span> },
            { key: "leverage", kind: "number", header: t("ops.margin.col_leverage"), cell: (p) => t("ops.margin.leverage_x", { leverage: p.maxLeverage }) },
            mayChange && {
              key: "change",
              header: t("ops.markets.changes"),
              wide: true,
              cell: (p) => {
                const id = `ops-pair-${p.symbolName.replace("/", "-")}`;
                return (
                  <details className={q.fold}>
                    <summary className={m.foldSummary}>{t("ops.markets.rules_open")}</summary>
                    <Form method="post" className={m.rulesForm} aria-label={t("ops.margin.pair_form_named", { symbol: p.symbolName })}>
                      <input type="hidden" name="intent" value="pair" />
                      <input type="hidden" name="symbolName" value={p.symbolName} />
                      <div className={m.field}>
                        <label htmlFor={id} className={q.label}>
                          {t("ops.margin.col_leverage")}
                        </label>
                        {leverageSelect(id, p.maxLeverage)}
                      </div>
                      <button type="submit" className={q.approve} aria-label={t("ops.margin.pair_save_named", { symbol: p.symbolName })}>
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
      {mayChange && offMargin.length > 0 ? (
        <Form method="post" className={m.rulesForm} aria-label={t("ops.margin.pair_add")}>
          <input type="hidden" name="intent" value="pair" />
          <div className={m.field}>
            <label htmlFor="ops-pair-new-symbol" className={q.label}>
              {t("ops.margin.col_market")}
            </label>
            <select id="ops-pair-new-symbol" name="symbolName" required className={`${s.smallInput} ${m.input}`}>
              {offMargin.map((symbol) => (
                <option key={symbol} value={symbol}>
                  {symbol}
                </option>
              ))}
            </select>
          </div>
          <div className={m.field}>
            <label htmlFor="ops-pair-new-leverage" className={q.label}>
              {t("ops.margin.col_leverage")}
            </label>
            {leverageSelect("ops-pair-new-leverage", 5)}
          </div>
          <button type="submit" className={q.approve}>
            {t("ops.margin.pair_add")}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
