import { data, type MetaFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/lib/i18n";
import { orderIdField } from "#protocol/endpoints/order-history";
import { Amount, OrderStatus, SideLabel, TradeTable, Triggers, TypeLabel, useWhen } from "~/components/entrust-tables";
import { PageErrorBoundary } from "~/components/error-page";
import { ENTRUST_PAGE_SIZE, ordersPageOf } from "~/lib/forms/entrust";
import { pageTitle } from "~/lib/use-shell";
import * as center from "~/styles/account-center.css";
import * as s from "~/styles/account-entrust.css";
import { EngineRefusal } from "~/services/engine/api.server";
import { withMember } from "~/services/engine/route.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "entrust.order_title") }];

/** One of the member's spot orders and its trades. Another member's order is not found, like a missing one. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine, request, params }) => {
    const id = orderIdField.safeParse(params.orderId);
    if (!id.success) throw data(null, { status: 404 });
    const page = Math.min(Math.max(Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1, 1), 100_000);
    try {
      return await engine.spot.order(id.data, { pageNo: page, pageSize: ENTRUST_PAGE_SIZE });
    } catch (error) {
      if (error instanceof EngineRefusal && error.outcome.kind === "error" && error.outcome.code === 404) throw data(null, { status: 404 });
      throw error;
    }
  });
}

export default function SpotOrderPage() {
  const { t } = useTranslation();
  const { order, trades } = useLoaderData<typeof loader>();
  const when = useWhen();
  const [base = "", quote = ""] = order.symbol.split("/");
  const facts: Array<[string, ReactNode]> = [
    [t("entrust.col.pair"), order.symbol],
    [t("entrust.col.account"), t(`entrust.account.${order.account}`)],
    [t("entrust.col.side"), <SideLabel key="side" side={order.side} />],
    [t("entrust.col.type"), <TypeLabel key="type" order={order} />],
    [t("entrust.col.status"), <OrderStatus key="status" order={order} />],
    [t("entrust.col.price"), order.price === null ? t("entrust.market_price") : <Amount key="price" value={order.price} coin={quote} />],
    [
      t("entrust.col.amount"),
      order.quantity !== null ? <Amount key="qty" value={order.quantity} coin={base} /> : <Amount key="money" value={order.money} coin={quote} />,
    ],
    [t("entrust.col.filled"), <Amount key="filled" value={order.filled} coin={base} />],
    [t("entrust.col.avg_price"), order.avgPrice === null ? "--" : <Amount key="avg" value={order.avgPrice} coin={quote} />],
    [t("entrust.col.total"), <Amount key="total" value={order.filledValue} coin={quote} />],
    [t("entrust.col.fee"), <Amount key="fee" value={order.fee} coin={order.feeCoin} />],
    [t("entrust.created"), when(order.createdAt)],
    [t("entrust.updated"), when(order.updatedAt)],
  ];
  if (order.stopProfitPrice || order.stopLossPrice) facts.push([t("entrust.col.trigger"), <Triggers key="triggers" order={order} />]);
  const backTab = order.status === "filled" || order.status === "cancelled" ? "history" : "open";
  return (
    <section className={center.card} aria-labelledby="order-title">
      <Link to={`${ordersPageOf(order.account)}?tab=${backTab}`} className={s.back}>
        ← {t(order.account === "spot" ? "entrust.back_to_orders" : "entrust.back_to_margin_orders")}
      </Link>
      <div className={s.head}>
        <h1 id="order-title" className={s.title}>
          {t("entrust.order_title")} <span className={s.muted}>{order.orderId}</span>
        </h1>
      </div>
      <dl className={s.facts}>
        {facts.map(([label, value]) => (
          <div key={label} className={s.fact}>
            <dt className={s.factLabel}>{label}</dt>
            <dd className={s.factValue}>{value}</dd>
          </div>
        ))}
      </dl>
      <h2 className={s.subtitle}>{t("entrust.order_trades")}</h2>
      <TradeTable
        trades={trades.records}
        label={t("entrust.order_trades")}
        orderLinks={false}
        empty={<p>{t("entrust.empty.order_trades")}</p>}
        pager={{ current: trades.current, pages: trades.pages, total: trades.total, hrefFor: (page) => (page === 1 ? "?" : `?page=${page}`) }}
      />
    </section>
  );
}

/** A missing order (or someone else's) says so; anything else is the usual error page. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section className={center.card} role="alert">
        <h1 className={s.title}>{t("entrust.not_found")}</h1>
        <p>
          <Link to="/account/entrust/spot" className={s.link}>
            {t("entrust.back_to_orders")}
          </Link>
        </p>
      </section>
    );
  }
  return <PageErrorBoundary />;
}
