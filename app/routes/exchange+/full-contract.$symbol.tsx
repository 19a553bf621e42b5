import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { PageErrorBoundary } from "~/components/error-page";
import { ContractOrderForm, type OrderPreview } from "~/components/contracts/contract-order-form";
import { ContractOpenOrders, ContractPositions } from "~/components/contracts/contract-tables";
import { ContractRules } from "~/components/contracts/contract-rules";
import { ContractStopTable } from "~/components/contracts/contract-stop-table";
import { ContractTicker } from "~/components/contracts/contract-ticker";
import { useLiveContract } from "~/components/contracts/use-live-contract";
import * as s from "~/components/exchange/exchange.css";
import { KlineArea } from "~/components/exchange/kline-chart";
import { OrderBook } from "~/components/exchange/order-book";
import { RecentTrades } from "~/components/exchange/recent-trades";
import { formErrorText } from "~/lib/forms/form-error";
import { readBookGroup, type BookGroup } from "~/lib/book-grouping";
import { CONTRACT_ACTIONS, CONTRACT_CHART_PRICES, CONTRACT_ORDER_TYPES, readContractChoices } from "~/lib/contract-choices";
import { useTranslation } from "~/lib/i18n";
import { numberFormatOf } from "~/lib/number-format";
import type { ShellData } from "~/lib/shell";
import { revalidateUnlessShownOnly } from "~/lib/revalidate-unless-shown-only";
import { pageTitle } from "~/lib/use-shell";
import { contractPageAction, loadContractPage } from "~/services/contracts/contract-page.server";
import { withEngine, withMember } from "~/services/engine/route.server";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: pageTitle(matches, "errors.not_found_title") }];
  const nf = numberFormatOf((matches.find((m) => m.id === "root")?.data as ShellData | undefined)?.lang);
  const { info, state } = data.goods;
  const price = state.lastPrice ?? state.markPrice;
  return [{ title: pageTitle(matches, `${price ? `${nf.display(price, { abbreviate: false })} | ` : ""}${info.base}${info.quote}`, { literal: true }) }];
};

export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, ({ engine, params, request }) => loadContractPage(engine, params.symbol ?? "", new URL(request.url)));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine, params }) => contractPageAction(engine, params.symbol ?? ""));
}

/** Switching the order panel's tabs or the book's grouping only changes how the page shows what it has. */
export const shouldRevalidate = revalidateUnlessShownOnly(["type", "action", "group", "chart"]);

/**
 * Perpetual contract trading (spec §2 /exchange/full-contract/{symbol}; issue 30): the contract's
 * prices and funding, its chart (last or mark price), book and trades, the order panel (open or close, limit or market, the
 * member's leverage, the cost before placing), and the member's positions and open orders.
 */
export default function ContractPage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const { action: tab, orderType } = readContractChoices(search);
  const { info } = data.goods;
  const { account } = data;
  const live = useLiveContract({
    symbol: data.symbol,
    state: data.goods.state,
    depth: data.goods.depth,
    trades: data.goods.trades,
    chart: data.chart,
    privateTopic: account?.ticket ? { topic: account.ticket.topic, ticket: account.ticket.ticket } : null,
  });
  const withChoice = (name: string, value: string) => {
    const next = new URLSearchParams(search);
    next.set(name, value);
    return `?${next.toString()}`;
  };
  const group = readBookGroup(search);
  const refused = actionData && "form" in actionData ? actionData : null;
  const here = location.pathname + location.search;
  const refPrice = live.state.lastPrice ?? live.state.markPrice;
  const cont = t("contract_page.cont");
  const leverageErrors = refused?.form === "leverage" ? [...(refused.result.error?.[""] ?? []), ...(refused.result.error?.leverage ?? [])] : [];
  return (
    <div className={s.contractPage}>
      <div className={s.area.bar}>
        <ContractTicker info={info} state={live.state} contracts={data.contracts} />
      </div>
      <div className={s.area.book}>
        <OrderBook
          depth={live.depth}
          base={cont}
          quote={info.quote}
          amountScale={0}
          priceScale={info.priceScale}
          last={live.trades[0]?.price ?? live.state.lastPrice}
          lastTone="flat"
          group={group}
          groupHref={(g: BookGroup) => withChoice("group", String(g))}
          total="cumulative"
        />
      </div>
      <div className={s.area.chart}>
        <KlineArea
          candles={live.candles}
          period={data.chart.period}
          symbol={`${info.base}${info.quote} ${t(data.chart.price === "mark" ? "contract_page.mark_price" : "contract_page.last_price")}`}
          search={search}
          priceScale={info.priceScale}
          amountScale={0}
          depth={live.depth}
          prices={{
            current: data.chart.price,
            choices: CONTRACT_CHART_PRICES.map((value) => ({ value, label: t(value === "mark" ? "contract_page.mark_price" : "contract_page.last_price") })),
          }}
        />
      </div>
      <div className={s.area.trades}>
        <RecentTrades trades={live.trades} base={cont} quote={info.quote} priceScale={info.priceScale} amountScale={0} />
      </div>
      <section className={s.area.forms} aria-labelledby="contract-trade-title">
        <h2 id="contract-trade-title" className="visually-hidden">
          {t("contract_page.trade")}
        </h2>
        {info.halted ? (
          <p className={s.haltNotice} role="status">
            {t("contract_page.halted", { contract: `${info.base}${info.quote}` })}
          </p>
        ) : null}
        <nav className={s.typeTabs} aria-label={t("contract_page.order_panel")}>
          {CONTRACT_ACTIONS.map((a) => (
            <Link key={a} to={withChoice("action", a)} className={s.typeTab} aria-current={a === tab ? "true" : undefined} preventScrollReset replace>
              {t(`contract_page.tab_${a}`)}
            </Link>
          ))}
          {CONTRACT_ORDER_TYPES.map((type) => (
            <Link
              key={type}
              to={withChoice("type", type)}
              className={s.typeTab}
              aria-current={type === orderType ? "true" : undefined}
              preventScrollReset
              replace
            >
              {type === "stop" ? t("contract_page.type_stop") : t(`exchange.type_${type}`)}
            </Link>
          ))}
        </nav>
        {account ? (
          <>
            <Form method="post" replace preventScrollReset className={s.leverageForm} aria-label={t("contract_page.leverage_title")}>
              <input type="hidden" name="intent" value="leverage" />
              <input type="hidden" name="idempotencyKey" value={account.keys.leverage} />
              <div className={s.numberField}>
                <label htmlFor="contract-leverage" className={s.numberLabel}>
                  {t("contract_page.leverage_label", { max: account.leverage.maxLeverage })}
                </label>
                <div className={s.numberBox}>
                  <input
                    id="contract-leverage"
                    name="leverage"
                    inputMode="numeric"
                    autoComplete="off"
                    className={s.numberInput}
                    defaultValue={String(account.leverage.leverage)}
                    key={account.leverage.leverage}
                    aria-invalid={leverageErrors.length ? true : undefined}
                    aria-describedby={leverageErrors.length ? "contract-leverage-error" : undefined}
                  />
                  <span className={s.unit} aria-hidden="true">
                    x
                  </span>
                </div>
              </div>
              <button type="submit" className={s.cancelButton}>
                {t("contract_page.leverage_set_button")}
              </button>
              {leverageErrors.length ? (
                <p id="contract-leverage-error" className={s.fieldError}>
                  {leverageErrors.map((e) => formErrorText(e, t, { max: account.leverage.maxLeverage })).join(" ")}
                </p>
              ) : null}
            </Form>
            <Form method="post" replace preventScrollReset className={s.leverageForm} aria-label={t("contract_page.mode_title")}>
              <input type="hidden" name="intent" value="mode" />
              <input type="hidden" name="idempotencyKey" value={account.keys.mode} />
              <div className={s.numberField}>
                <label htmlFor="contract-margin-mode" className={s.numberLabel}>
                  {t("contract_page.mode_label")}
                </label>
                <div className={s.numberBox}>
                  <select
                    id="contract-margin-mode"
                    name="mode"
                    className={s.numberInput}
                    defaultValue={account.leverage.marginMode}
                    key={account.leverage.marginMode}
                    aria-describedby="contract-margin-mode-hint"
                  >
                    <option value="isolated">{t("contract_page.mode_isolated")}</option>
                    <option value="cross">{t("contract_page.mode_cross")}</option>
                  </select>
                </div>
              </div>
              <button type="submit" className={s.cancelButton}>
                {t("contract_page.mode_set_button")}
              </button>
              <p id="contract-margin-mode-hint" className={s.numberLabel}>
                {t(account.leverage.marginMode === "cross" ? "contract_page.mode_hint_cross" : "contract_page.mode_hint_isolated")}
              </p>
            </Form>
            <div className={s.formsRow}>
              <ContractOrderForm
                key={`${tab}-${orderType}`}
                info={info}
                action={tab}
                orderType={orderType}
                available={account.settle.available}
                leverage={account.leverage.leverage}
                refPrice={refPrice}
                idempotencyKey={account.keys.order}
                lastResult={refused?.form === "order" ? refused.result : null}
                preview={refused?.form === "order" && "preview" in refused ? (refused.preview as OrderPreview) : null}
              />
              <ContractRules info={info} />
            </div>
          </>
        ) : (
          <div className={s.loginPrompt}>
            <p>{t("contract_page.login_to_trade")}</p>
            <Link className={s.loginLink} to={`/user/login?redirectTo=${encodeURIComponent(here)}`}>
              {t("exchange.login")}
            </Link>
          </div>
        )}
      </section>
      {account && (
        <section className={s.area.orders} aria-label={t("contract_page.member_panel")}>
          <div className={s.ordersHead}>
            <h2 id="contract-positions-title" className={s.panelTitle}>
              {t("contract_page.positions")}
            </h2>
            {account.positions.length ? (
              <Form method="post" replace preventScrollReset>
                <input type="hidden" name="intent" value="close_all" />
                <input type="hidden" name="idempotencyKey" value={account.keys.closeAll} />
                <button type="submit" className={s.cancelButton}>
                  {t("contract_page.close_all")}
                </button>
              </Form>
            ) : null}
          </div>
          <ContractPositions
            positions={account.positions}
            keys={account.keys.positions}
            labelledBy="contract-positions-title"
            marginReply={refused && (refused.form.startsWith("margin-") || refused.form.startsWith("tpsl-")) ? refused : null}
          />
          <div className={s.ordersHead}>
            <h2 id="contract-orders-title" className={s.panelTitle}>
              {t("contract_page.open_orders")}
            </h2>
            <Link to={`/account/entrust/future/${info.contract_type === 1 ? "u" : "coin"}`} className={s.allOrdersLink}>
              {t("contract_page.all_orders")}
            </Link>
          </div>
          <ContractOpenOrders orders={account.openOrders} labelledBy="contract-orders-title" />
          <div className={s.ordersHead}>
            <h2 id="contract-stops-title" className={s.panelTitle}>
              {t("contract_page.stop_orders")}
            </h2>
          </div>
          <ContractStopTable stops={account.stops} look="compact" name={{ labelledBy: "contract-stops-title" }} empty={<p>{t("contract_page.no_stops")}</p>} />
        </section>
      )}
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
