import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { toInputText, type DecimalMark } from "#protocol/decimal-input";
import type { OpsMarket } from "#protocol/endpoints/spot";
import { DataTable } from "~/components/data-table";
import { formErrorText } from "~/lib/forms/form-error";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadMarkets, marketsAction, type MarketRefusal, type RuleField } from "./__markets.server";
import * as m from "./markets.css";
import * as o from "./ops-admin.css";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.markets.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** The spot markets (issue 29): `markets.read` sees them, `markets.change` halts, resumes and changes their rules. */
export function loader(args: LoaderFunctionArgs) {
  return loadMarkets(args);
}

export function action(args: ActionFunctionArgs) {
  return marketsAction(args);
}

/** After a refused post too: the table shows where each market stands now (another operator may have halted it). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;

/** A decimal's own number of decimals: rules are shown exactly, grouped in the operator's language. */
const decimalsOf = (value: string) => value.split(".")[1]?.length ?? 0;

/** The element id of a market's form field (`BTC/USDT` → `ops-market-BTC-USDT-minQuantity`). */
const fieldId = (symbol: string, field: RuleField) => `ops-market-${symbol.replace(/[^A-Za-z0-9]/g, "-")}-${field}`;

/** The labels of the rules form's fields, which its errors name too. */
function useRuleLabels() {
  const { t } = useTranslation();
  return (market: OpsMarket): Record<RuleField, string> => ({
    minQuantity: t("ops.markets.min_label", { coin: market.base }),
    makerFeeBps: t("ops.markets.maker_label"),
    takerFeeBps: t("ops.markets.taker_label"),
  });
}

/** An error of a rules field in words: its label, the market's decimals and an example in the operator's decimal mark. */
function useFieldError(mark: DecimalMark) {
  const { t } = useTranslation();
  return (error: string, label: string, market: OpsMarket) =>
    formErrorText(error, t, { field: label, max: market.amountScale, mark, example: toInputText(market.amountScale === 0 ? "12" : "12.5", mark) });
}

export default function OpsMarketsPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const { markets, mayChange, mark } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as { refusal: MarketRefusal } | undefined;
  const refusal = reply?.refusal;
  const labels = useRuleLabels();
  const fieldError = useFieldError(mark);
  const exact = (value: string) => nf.fixed(value, decimalsOf(value));
  const refusedMarket = refusal?.symbol ? markets.find((market) => market.symbol === refusal.symbol) : undefined;
  return (
    <section className={s.card} aria-labelledby="ops-markets-title">
      <h1 id="ops-markets-title" className={s.title}>
        {t("ops.markets.title")}
      </h1>
      <p id="ops-markets-notice" className={`${s.muted} ${o.note}`}>
        {t("ops.markets.notice")}
      </p>
      {mayChange ? null : <p className={`${s.muted} ${o.note}`}>{t("ops.markets.read_only")}</p>}
      {refusal ? (
        // Every refusal, above the table (a page without JavaScript comes back at its top); a field's error links to its field.
        <div className={o.alert} role="alert" data-testid="ops-markets-refusal">
          {refusal.error ? (
            <p className={o.alertLine}>
              {refusal.symbol ? <strong>{refusal.symbol}: </strong> : null}
              {formErrorText(refusal.error, t)}
            </p>
          ) : null}
          {refusedMarket && refusal.fields ? (
            <>
              <p className={o.alertLine}>
                <strong>{refusedMarket.symbol}: </strong>
                {t("ops.markets.not_changed")}
              </p>
              <ul className={m.alertList}>
                {Object.entries(refusal.fields).map(([field, error]) => (
                  <li key={field}>
                    <a href={`#${fieldId(refusedMarket.symbol, field as RuleField)}`}>
                      {fieldError(error, labels(refusedMarket)[field as RuleField], refusedMarket)}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
      <div className={m.table}>
        <DataTable
          rows={markets}
          rowKey={(market) => market.symbol}
          name={{ labelledBy: "ops-markets-title" }}
          empty={t("ops.markets.empty")}
          reflow="cards"
          testId="ops-markets"
          columns={[
            {
              // The market and whether it trades: one column, so the table fits a 768 px window.
              key: "market",
              header: t("ops.markets.market"),
              kind: "status",
              cell: (market) => (
                <span className={q.stack}>
                  <span className={o.strong}>{market.symbol}</span>
                  {market.halted ? (
                    <>
                      <span className={m.halted}>{t("ops.markets.halted")}</span>
                      <span className={q.small}>{t("ops.markets.halted_note")}</span>
                    </>
                  ) : (
                    <span className={q.small}>{t("ops.markets.trading")}</span>
                  )}
                </span>
              ),
            },
            {
              key: "rules",
              header: t("ops.markets.rules"),
              cell: (market) => (
                <span className={q.stack}>
                  <span>{t("ops.markets.minimum", { value: exact(market.minQuantity), coin: market.base })}</span>
                  <span className={q.small}>{t("ops.markets.tick", { value: exact(market.tickSize), coin: market.quote })}</span>
                  <span className={q.small}>{t("ops.markets.lot", { value: exact(market.lotSize), coin: market.base })}</span>
                  <span className={q.small}>{t("ops.markets.scales", { price: market.priceScale, amount: market.amountScale })}</span>
                </span>
              ),
            },
            {
              key: "fees",
              header: t("ops.markets.fees"),
              cell: (market) => (
                <span className={q.stack}>
                  <span className={q.nowrap}>{t("ops.markets.maker", { bps: market.makerFeeBps })}</span>
                  <span className={q.nowrap}>{t("ops.markets.taker", { bps: market.takerFeeBps })}</span>
                </span>
              ),
            },
            {
              key: "last",
              header: t("ops.markets.last"),
              kind: "number",
              cell: (market) =>
                market.lastPrice === null ? (
                  <span className={s.muted}>{t("ops.markets.no_trades")}</span>
                ) : (
                  <span className={q.stack}>
                    <span className={q.nowrap}>{`${nf.fixed(market.lastPrice, market.priceScale)} ${market.quote}`}</span>
                    {market.volume24h !== null ? (
                      <span className={q.small}>{t("ops.markets.volume", { volume: exact(market.volume24h), coin: market.base })}</span>
                    ) : null}
                  </span>
                ),
            },
            mayChange && {
              key: "changes",
              header: t("ops.markets.changes"),
              cell: (market) => (
                <MarketChanges
                  // A change done starts the rules form afresh from the new rules; a refusal keeps it as typed.
                  key={`${market.minQuantity}:${market.makerFeeBps}:${market.takerFeeBps}`}
                  market={market}
                  mark={mark}
                  refusal={refusal?.symbol === market.symbol ? refusal : undefined}
                  labels={labels(market)}
                  fieldError={fieldError}
                />
              ),
            },
          ]}
        />
      </div>
    </section>
  );
}

interface MarketChangesProps {
  market: OpsMarket;
  mark: DecimalMark;
  /** The action's refusal, if it is this market's. */
  refusal: MarketRefusal | undefined;
  labels: Record<RuleField, string>;
  fieldError: (error: string, label: string, market: OpsMarket) => string;
}

/**
 * A market's changes: halt or resume (one button, a form of its own: it asks nothing more, its
 * words say what it does) and the rules form (minimum quantity, maker and taker fee), folded
 * under "Change rules…" until opened. Plain posts: they work without JavaScript.
 */
function MarketChanges({ market, mark, refusal, labels, fieldError }: MarketChangesProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { symbol } = market;
  const sending = (intent: string) =>
    navigation.state === "submitting" && navigation.formData?.get("symbol") === symbol && navigation.formData?.get("intent") === intent;
  const rulesRefusal = refusal?.intent === "rules" ? refusal : undefined;
  const typed = rulesRefusal?.values;
  const shown: Record<RuleField, string> = {
    minQuantity: toInputText(market.minQuantity, mark),
    makerFeeBps: String(market.makerFeeBps),
    takerFeeBps: String(market.takerFeeBps),
  };
  const feeHintId = `${fieldId(symbol, "makerFeeBps")}-hint`;
  /** A field with its label, and its hint when it has its own (the fees share one, under both). */
  const input = (field: RuleField, hintId: string, numeric: boolean, hint?: string) => {
    const id = fieldId(symbol, field);
    const error = rulesRefusal?.fields?.[field];
    const errorId = `${id}-error`;
    return (
      <div className={m.field}>
        <label htmlFor={id} className={q.label}>
          {labels[field]}
        </label>
        <input
          id={id}
          name={field}
          type="text"
          inputMode={numeric ? "numeric" : "decimal"}
          autoComplete="off"
          spellCheck={false}
          required
          defaultValue={typed?.[field] ?? shown[field]}
          className={`${s.smallInput} ${m.input}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        />
        {hint ? (
          <p id={hintId} className={q.hint}>
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={errorId} className={m.error}>
            {fieldError(error, labels[field], market)}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <div className={m.changes}>
      <Form method="post">
        <input type="hidden" name="symbol" value={symbol} />
        {market.halted ? (
          <button
            type="submit"
            name="intent"
            value="resume"
            className={m.resume}
            aria-label={t("ops.markets.resume_named", { symbol })}
            disabled={sending("resume")}
            aria-busy={sending("resume") || undefined}
          >
            {t("ops.markets.resume")}
          </button>
        ) : (
          <button
            type="submit"
            name="intent"
            value="halt"
            className={q.reject}
            aria-label={t("ops.markets.halt_named", { symbol })}
            aria-describedby="ops-markets-notice"
            disabled={sending("halt")}
            aria-busy={sending("halt") || undefined}
          >
            {t("ops.markets.halt")}
          </button>
        )}
      </Form>
      <details className={q.fold} open={rulesRefusal ? true : undefined}>
        <summary className={m.foldSummary}>{t("ops.markets.rules_open")}</summary>
        <Form method="post" className={m.rulesForm} aria-label={t("ops.markets.rules_named", { symbol })}>
          <input type="hidden" name="symbol" value={symbol} />
          <input type="hidden" name="shown.minQuantity" value={market.minQuantity} />
          <input type="hidden" name="shown.makerFeeBps" value={market.makerFeeBps} />
          <input type="hidden" name="shown.takerFeeBps" value={market.takerFeeBps} />
          {input(
            "minQuantity",
            `${fieldId(symbol, "minQuantity")}-hint`,
            false,
            t("ops.markets.min_hint", { lot: toInputText(market.lotSize, mark), coin: market.base }),
          )}
          {input("makerFeeBps", feeHintId, true)}
          {input("takerFeeBps", feeHintId, true)}
          <p id={feeHintId} className={q.hint}>
            {t("ops.markets.fee_hint")}
          </p>
          <button
            type="submit"
            name="intent"
            value="rules"
            className={q.approve}
            aria-label={t("ops.markets.save_named", { symbol })}
            disabled={sending("rules")}
            aria-busy={sending("rules") || undefined}
          >
            {t("ops.markets.save")}
          </button>
        </Form>
      </details>
    </div>
  );
}
