import type { MetaFunction, ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { PageErrorBoundary } from "~/components/error-page";
import * as s from "~/components/exchange/exchange.css";
import { KlineArea } from "~/components/exchange/kline-chart";
import { MemberPanel } from "~/components/exchange/member-panel";
import { OrderBook } from "~/components/exchange/order-book";
import { DealSwitch } from "~/components/exchange/deal-switch";
import { OrderForm } from "~/components/exchange/order-form";
import { RecentTrades } from "~/components/exchange/recent-trades";
import { TickerBar, toneOf } from "~/components/exchange/ticker-bar";
import { useLiveMarket } from "~/components/exchange/use-live-market";
import { compareDecimal } from "#protocol/decimal";
import { ORDER_TYPES } from "~/lib/forms/spot-order";
import { readBookGroup, type BookGroup } from "~/lib/book-grouping";
import { readFormSide, readMemberTab, type MemberTab } from "~/lib/trading-tabs";
import { numberFormatOf } from "~/lib/number-format";
import type { ShellData } from "~/lib/shell";
import { revalidateUnlessShownOnly } from "~/lib/revalidate-unless-shown-only";
import { pageTitle } from "~/lib/use-shell";
import { withEngine, withMember } from "~/services/engine/route.server";
import { exchangeAction, loadExchange } from "~/services/spot/exchange.server";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: pageTitle(matches, "errors.not_found_title") }];
  // No hooks here: the member's language comes from the root loader's data.
  const nf = numberFormatOf((matches.find((m) => m.id === "root")?.data as ShellData | undefined)?.lang);
  return [{ title: pageTitle(matches, `${nf.display(data.goods.ticker.close, { abbreviate: false })} | ${data.symbol}`, { literal: true }) }];
};

export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, ({ engine, params }) => loadExchange(engine, params.symbol ?? ""));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine, params }) => exchangeAction(engine, params.symbol ?? ""));
}

/** Switching the order type tab or the book's grouping only changes how the page shows what it has: no need to reload the market. */
export const shouldRevalidate = revalidateUnlessShownOnly(["type", "group", "chart", "side"]);

/** Spot trading (spec §2 /exchange/full-screen/{symbol}): chart, book, trades, order forms, open orders. */
export default function ExchangePage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const orderType = (ORDER_TYPES as readonly string[]).includes(search.get("type") ?? "")
    ? (search.get("type") as (typeof ORDER_TYPES)[number])
    : data.orderType;
  const { goods, account } = data;
  const live = useLiveMarket({
    symbol: data.symbol,
    period: data.period,
    depth: goods.depth,
    trades: goods.trades,
    markets: data.markets,
    candles: data.candles,
    privateTopic: account?.ticket ? { topic: account.ticket.topic, ticket: account.ticket.ticket } : null,
  });
  const ticker = live.ticker ?? goods.ticker;
  const rules = {
    base: goods.symbol.coin_symbol,
    quote: goods.symbol.quote_symbol,
    coin_coin_scale: goods.symbol.coin_coin_scale,
    base_coin_scale: goods.symbol.base_coin_scale,
    makerFee: goods.symbol.makerFee,
    takerFee: goods.symbol.takerFee,
  };
  const lastTone =
    live.trades[0] && live.trades[1]
      ? toneOf(live.trades[0].price === live.trades[1].price ? null : String(compareDecimal(live.trades[0].price, live.trades[1].price)))
      : toneOf(ticker.zdf);
  /** This page's URL with one of its display choices (the order type, the book's grouping) changed. */
  const withChoice = (name: "type" | "group" | "tab" | "side" | "deal", value: string) => {
    const next = new URLSearchParams(search);
    next.set(name, value);
    return `?${next.toString()}`;
  };
  const typeLink = (type: string) => withChoice("type", type);
  const group = readBookGroup(search);
  const tab = readMemberTab(search);
  const phoneSide = readFormSide(search);
  const refused = actionData && "side" in actionData ? actionData : null;
  const here = location.pathname + location.search;
  return (
    <div className={s.page}>
      <div className={s.area.bar}>
        <TickerBar ticker={ticker} markets={live.markets} symbol={data.symbol} priceScale={rules.coin_coin_scale} />
      </div>
      <div className={s.area.book}>
        <OrderBook
          depth={live.depth}
          base={rules.base}
          quote={rules.quote}
          amountScale={rules.base_coin_scale}
          priceScale={rules.coin_coin_scale}
          last={live.trades[0]?.price ?? ticker.close}
          lastTone={lastTone}
          group={group}
          groupHref={(g: BookGroup) => withChoice("group", String(g))}
        />
      </div>
      <div className={s.area.chart}>
        <KlineArea
          candles={live.candles}
          period={data.period}
          symbol={data.symbol}
          search={search}
          priceScale={rules.coin_coin_scale}
          amountScale={rules.base_coin_scale}
          depth={live.depth}
        />
      </div>
      <div className={s.area.trades}>
        <RecentTrades trades={live.trades} base={rules.base} quote={rules.quote} priceScale={rules.coin_coin_scale} amountScale={rules.base_coin_scale} />
      </div>
      <section className={s.area.forms} aria-labelledby="trade-title">
        <h2 id="trade-title" className="visually-hidden">
          {t("exchange.trade")}
        </h2>
        {goods.symbol.halted ? (
          <p className={s.haltNotice} role="status">
            {t("exchange.halted", { symbol: data.symbol })}
          </p>
        ) : null}
        <nav className={s.typeTabs} aria-label={t("exchange.order_types")}>
          {ORDER_TYPES.map((type) => (
            <Link key={type} to={typeLink(type)} className={s.typeTab} aria-current={type === orderType ? "true" : undefined} preventScrollReset replace>
              {t(`exchange.type_${type}`)}
            </Link>
          ))}
        </nav>
        {account?.margin ? (
          <DealSwitch deal={account.deal} account={account.margin.account} symbol={data.symbol} hrefOf={(deal) => withChoice("deal", deal)} />
        ) : null}
        {account ? (
          <div className={s.formsRow}>
            {/* A phone shows one side's form at a time (links: no script needed); wider screens show both. */}
            <nav className={s.sideSwitch} aria-label={t("exchange.form_side")}>
              {(["buy", "sell"] as const).map((side) => (
                <Link
                  key={side}
                  to={withChoice("side", side)}
                  className={s.sideLink[side]}
                  aria-current={side === phoneSide ? "true" : undefined}
                  preventScrollReset
                  replace
                >
                  {t(`exchange.side_${side}`)}
                </Link>
              ))}
            </nav>
            {(["buy", "sell"] as const).map((side) => (
              <div key={side} className={side === phoneSide ? undefined : s.otherSide}>
                <OrderForm
                  key={`${side}-${orderType}-${account.deal}`}
                  side={side}
                  deal={account.deal}
                  marginSymbol={data.symbol}
                  orderType={orderType}
                  rules={rules}
                  available={side === "buy" ? account.quote.available : account.base.available}
                  funding={side === "buy" ? account.funding.quote : account.funding.base}
                  idempotencyKey={account.keys[side]}
                  fundKey={side === "buy" ? account.keys.fundBuy : account.keys.fundSell}
                  lastResult={refused?.side === side ? refused.result : null}
                  suggestedPrice={ticker.close}
                />
              </div>
            ))}
          </div>
        ) : (
          <div className={s.loginPrompt}>
            <p>{t("exchange.login_to_trade")}</p>
            <Link className={s.loginLink} to={`/user/login?redirectTo=${encodeURIComponent(here)}`}>
              {t("exchange.login")}
            </Link>
          </div>
        )}
      </section>
      {account && (
        <div className={s.area.orders}>
          <MemberPanel
            tab={tab}
            tabHref={(next: MemberTab) => withChoice("tab", next)}
            base={rules.base}
            quote={rules.quote}
            openOrders={account.openOrders}
            history={account.history}
            trades={account.trades}
            funds={[
              { coin: rules.base, available: account.base.available, frozen: account.base.frozen, funding: account.funding.base },
              { coin: rules.quote, available: account.quote.available, frozen: account.quote.frozen, funding: account.funding.quote },
            ]}
          />
        </div>
      )}
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
