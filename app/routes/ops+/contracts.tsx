import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { percentOf } from "~/lib/contract-cost";
import { formErrorText } from "~/lib/forms/form-error";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { contractsAction, loadContracts, type ContractRefusal, type ContractRuleField } from "./__contracts.server";
import * as m from "./markets.css";
import * as o from "./ops-admin.css";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.contracts.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** The perpetual contracts (issue 30): `markets.read` sees them live, `markets.change` halts, resumes and changes their rules. */
export function loader(args: LoaderFunctionArgs) {
  return loadContracts(args);
}

export function action(args: ActionFunctionArgs) {
  return contractsAction(args);
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;

const FIELDS: ContractRuleField[] = ["makerFeeBps", "takerFeeBps", "minQty", "maxQty", "priceBandPercent"];
const fieldId = (symbol: string, field: ContractRuleField) => `ops-contract-${symbol.replace(/[^A-Za-z0-9]/g, "-")}-${field}`;

export default function OpsContractsPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const { contracts, funds, mayChange, mark } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as { refusal: ContractRefusal } | undefined;
  const refusal = reply?.refusal;
  const navigation = useNavigation();
  const label = (field: ContractRuleField) => t(`ops.contracts.field_${field}`);
  const errorText = (error: string, field: ContractRuleField) => formErrorText(error, t, { field: label(field), max: 6, mark, example: "5" });
  const price = (value: string | null, scale: number) => (value === null ? "--" : nf.fixed(value, scale));
  return (
    <section className={s.card} aria-labelledby="ops-contracts-title">
      <h1 id="ops-contracts-title" className={s.title}>
        {t("ops.contracts.title")}
      </h1>
      <p id="ops-contracts-notice" className={`${s.muted} ${o.note}`}>
        {t("ops.contracts.notice")}
      </p>
      {mayChange ? null : <p className={`${s.muted} ${o.note}`}>{t("ops.markets.read_only")}</p>}
      {refusal ? (
        <div className={o.alert} role="alert" data-testid="ops-contracts-refusal">
          {refusal.error ? (
            <p className={o.alertLine}>
              {refusal.symbol ? <strong>{refusal.symbol}: </strong> : null}
              {formErrorText(refusal.error, t)}
            </p>
          ) : null}
          {refusal.symbol && refusal.fields ? (
            <ul className={m.alertList}>
              {Object.entries(refusal.fields).map(([field, error]) => (
                <li key={field}>
                  <a href={`#${fieldId(refusal.symbol!, field as ContractRuleField)}`}>{errorText(error, field as ContractRuleField)}</a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <div className={m.table}>
        <DataTable
          rows={contracts}
          rowKey={(c) => `${c.info.contract_type}-${c.info.symbolName}`}
          name={{ labelledBy: "ops-contracts-title" }}
          empty={t("ops.contracts.empty")}
          reflow="cards"
          testId="ops-contracts"
          columns={[
            {
              key: "contract",
              header: t("ops.contracts.contract"),
              kind: "status",
              cell: ({ info }) => (
                <span className={q.stack}>
                  <span className={o.strong}>{info.symbolName}</span>
                  <span className={q.small}>{t(info.contract_type === 1 ? "contract_page.kind_linear" : "contract_page.kind_inverse")}</span>
                  {info.halted ? <span className={m.halted}>{t("ops.markets.halted")}</span> : <span className={q.small}>{t("ops.markets.trading")}</span>}
                </span>
              ),
            },
            {
              key: "prices",
              header: t("ops.contracts.prices"),
              cell: ({ info, state }) => (
                <span className={q.stack}>
                  <span className={q.nowrap}>{t("ops.contracts.mark", { price: price(state.markPrice, info.priceScale) })}</span>
                  <span className={q.small}>{t("ops.contracts.index", { price: price(state.indexPrice, info.priceScale) })}</span>
                  <span className={q.small}>{t("ops.contracts.last", { price: price(state.lastPrice, info.priceScale) })}</span>
                </span>
              ),
            },
            {
              key: "risk",
              header: t("ops.contracts.book"),
              cell: ({ state }) => (
                <span className={q.stack}>
                  <span>{t("ops.contracts.open_interest", { qty: nf.display(state.openInterest, { abbreviate: false }) })}</span>
                  <span className={q.small}>{t("ops.contracts.funding", { rate: nf.fixed(percentOf(state.fundingRate), 4) })}</span>
                </span>
              ),
            },
            {
              key: "rules",
              header: t("ops.markets.rules"),
              cell: ({ shown }) => (
                <span className={q.stack}>
                  <span className={q.nowrap}>{t("ops.markets.maker", { bps: shown.makerFeeBps })}</span>
                  <span className={q.nowrap}>{t("ops.markets.taker", { bps: shown.takerFeeBps })}</span>
                  <span className={q.small}>{t("ops.contracts.limits", { min: shown.minQty, max: nf.display(shown.maxQty, { abbreviate: false }) })}</span>
                  <span className={q.small}>{t("ops.contracts.band", { band: nf.display(shown.priceBandPercent, { abbreviate: false }) })}</span>
                </span>
              ),
            },
            mayChange && {
              key: "changes",
              header: t("ops.markets.changes"),
              cell: ({ info, shown }) => {
                const symbol = info.symbolName;
                const sending = (intent: string) =>
                  navigation.state === "submitting" && navigation.formData?.get("symbol") === symbol && navigation.formData?.get("intent") === intent;
                const mine = refusal?.symbol === symbol && refusal.intent === "rules" ? refusal : undefined;
                return (
                  <div className={m.changes} key={Object.values(shown).join(":")}>
                    <Form method="post">
                      <input type="hidden" name="symbol" value={symbol} />
                      <button
                        type="submit"
                        name="intent"
                        value={info.halted ? "resume" : "halt"}
                        className={info.halted ? m.resume : q.reject}
                        aria-label={t(info.halted ? "ops.markets.resume_named" : "ops.markets.halt_named", { symbol })}
                        aria-describedby="ops-contracts-notice"
                        disabled={sending(info.halted ? "resume" : "halt")}
                      >
                        {t(info.halted ? "ops.markets.resume" : "ops.markets.halt")}
                      </button>
                    </Form>
                    <details className={q.fold} open={mine ? true : undefined}>
                      <summary className={m.foldSummary}>{t("ops.markets.rules_open")}</summary>
                      <Form method="post" className={m.rulesForm} aria-label={t("ops.markets.rules_named", { symbol })}>
                        <input type="hidden" name="symbol" value={symbol} />
                        {FIELDS.map((field) => (
                          <input key={`shown-${field}`} type="hidden" name={`shown.${field}`} value={shown[field]} />
                        ))}
                        {FIELDS.map((field) => {
                          const id = fieldId(symbol, field);
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
                                inputMode={field === "priceBandPercent" ? "decimal" : "numeric"}
                                autoComplete="off"
                                spellCheck={false}
                                required
                                defaultValue={mine?.values?.[field] ?? (field === "priceBandPercent" ? shown[field].replace(".", mark) : shown[field])}
                                className={`${s.smallInput} ${m.input}`}
                                aria-invalid={error ? true : undefined}
                                aria-describedby={error ? `${id}-error` : undefined}
                              />
                              {error ? (
                                <p id={`${id}-error`} className={m.error}>
                                  {errorText(error, field)}
                                </p>
                              ) : null}
                            </div>
                          );
                        })}
                        <button
                          type="submit"
                          name="intent"
                          value="rules"
                          className={q.approve}
                          aria-label={t("ops.markets.save_named", { symbol })}
                          disabled={sending("rules")}
                        >
                          {t("ops.markets.save")}
                        </button>
                      </Form>
                    </details>
                  </div>
                );
              },
            },
          ]}
        />
      </div>
      <h2 id="ops-funds-title" className={s.title}>
        {t("ops.contracts.funds_title")}
      </h2>
      <p className={`${s.muted} ${o.note}`}>{t("ops.contracts.funds_note")}</p>
      <div className={m.table}>
        <DataTable
          rows={funds}
          rowKey={(f) => f.coin}
          name={{ labelledBy: "ops-funds-title" }}
          empty={t("ops.contracts.empty")}
          reflow="cards"
          testId="ops-contract-funds"
          columns={[
            { key: "coin", header: t("ops.contracts.col_coin"), cell: (f) => <span className={o.strong}>{f.coin}</span> },
            { key: "insurance", kind: "number", header: t("ops.contracts.col_insurance"), cell: (f) => nf.display(f.insurance, { abbreviate: false }) },
            { key: "fees", kind: "number", header: t("ops.contracts.col_fees"), cell: (f) => nf.display(f.fees, { abbreviate: false }) },
            {
              key: "deficit",
              kind: "number",
              header: t("ops.contracts.col_deficit"),
              cell: (f) => (/[1-9]/.test(f.deficit) ? <span className={m.halted}>{nf.display(f.deficit, { abbreviate: false })}</span> : "0"),
            },
            mayChange && {
              key: "insure",
              header: t("ops.markets.changes"),
              cell: (f) => {
                const id = `ops-insure-${f.coin}`;
                return (
                  <Form method="post" className={m.rulesForm} aria-label={t("ops.contracts.insure_named", { coin: f.coin })}>
                    <input type="hidden" name="coin" value={f.coin} />
                    <input type="hidden" name="idempotencyKey" value={f.key} />
                    <div className={m.field}>
                      <label htmlFor={id} className={q.label}>
                        {t("ops.contracts.insure_amount", { coin: f.coin })}
                      </label>
                      <input id={id} name="amount" type="text" inputMode="decimal" autoComplete="off" required className={`${s.smallInput} ${m.input}`} />
                    </div>
                    <button
                      type="submit"
                      name="intent"
                      value="insure"
                      className={q.approve}
                      disabled={navigation.state === "submitting" && navigation.formData?.get("coin") === f.coin}
                    >
                      {t("ops.contracts.insure")}
                    </button>
                  </Form>
                );
              },
            },
          ]}
        />
      </div>
    </section>
  );
}
