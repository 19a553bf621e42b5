import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import type { ContractOrder } from "#protocol/endpoints/contracts";
import { DataTable } from "~/components/data-table";
import { Amount, useWhen } from "~/components/entrust-tables";
import { ContractStopTable } from "~/components/contracts/contract-stop-table";
import { PageErrorBoundary } from "~/components/error-page";
import { useTranslation } from "~/lib/i18n";
import { percentOf } from "~/lib/contract-cost";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { CONTRACT_DIRECTION_KEYS as DIRECTIONS, CONTRACT_ORDER_TABS, type ContractOrderTab } from "~/lib/contract-choices";
import { cancelContractOrder, loadContractOrders } from "~/services/contracts/contract-orders.server";
import { withMember } from "~/services/engine/route.server";
import * as center from "~/styles/account-center.css";
import * as s from "~/styles/account-entrust.css";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => [
  { title: pageTitle(matches, data?.kind === "coin" ? "entrust.contract_title_coin" : "entrust.contract_title_u") },
];

/**
 * Contract lists of one kind (spec §2 `future/u`, `future/coin`; issue 30): open orders, the order
 * history, stop orders waiting and ended, the funding paid or received and the positions
 * liquidated, filtered by contract.
 */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine, params }) => loadContractOrders(engine, params.kind ?? ""));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine, request, params }) => {
    const url = new URL(request.url);
    url.searchParams.delete("index");
    return cancelContractOrder(engine, `/account/entrust/future/${params.kind === "coin" ? "coin" : "u"}${url.search}`);
  });
}

export default function ContractOrdersPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const when = useWhen();
  const navigation = useNavigation();
  const { kind, tab, page, symbol, contracts, list, total, pages } = useLoaderData<typeof loader>();
  const base = `/account/entrust/future/${kind}`;
  const search = (changes: { tab?: ContractOrderTab; page?: number; symbol?: string | null }) => {
    const next = new URLSearchParams();
    next.set("tab", changes.tab ?? tab);
    const chosen = changes.symbol === undefined ? symbol : changes.symbol;
    if (chosen) next.set("symbol", chosen);
    if ((changes.page ?? 1) > 1) next.set("page", String(changes.page));
    return `${base}?${next.toString()}`;
  };
  const title = t(kind === "coin" ? "entrust.contract_title_coin" : "entrust.contract_title_u");
  const cancelling = navigation.state !== "idle" ? navigation.formData?.get("orderId") : null;
  const history = tab === "history";
  const table = {
    name: { caption: t(`entrust.tabs.${tab}`) },
    empty: <p>{symbol ? t("entrust.empty.filtered") : t(`entrust.empty.${tab}`)}</p>,
    pager: { current: page, pages, total, hrefFor: (n: number) => search({ page: n }) },
  };
  const time = { key: "time", kind: "time" as const, header: t("entrust.col.time"), cell: (r: { createdAt: string }) => when(r.createdAt) };
  const contract = { key: "contract", header: t("contract_page.col_contract"), cell: (r: { symbolName: string }) => r.symbolName.replace("/", "") };
  return (
    <section className={center.card} aria-labelledby="entrust-title">
      <div className={s.head}>
        <h1 id="entrust-title" className={s.title}>
          {title}
        </h1>
        {/* The kind's (or the chosen contract's) trades as a file: a plain link to a download, so it works without JavaScript. */}
        <a href={`${base}/export${symbol ? `?symbol=${symbol}` : ""}`} className={s.ghostButton} download>
          {t("entrust.export_trades")}
        </a>
      </div>
      <nav className={s.tabs} aria-label={t("entrust.tabs_label")}>
        {CONTRACT_ORDER_TABS.map((one) => (
          <Link key={one} to={search({ tab: one, page: 1 })} className={s.tab} aria-current={one === tab ? "page" : undefined}>
            {t(`entrust.tabs.${one}`)}
          </Link>
        ))}
      </nav>
      <Form method="get" className={s.filter} aria-label={t("entrust.filter_label")} key={`${tab}:${symbol ?? ""}`}>
        <input type="hidden" name="tab" value={tab} />
        <div className={s.filterField}>
          <label htmlFor="filter-contract" className={s.filterLabel}>
            {t("contract_page.col_contract")}
          </label>
          <select id="filter-contract" name="symbol" defaultValue={symbol ?? ""} className={s.control}>
            <option value="">{t("entrust.all_contracts")}</option>
            {contracts.map((one) => (
              <option key={one} value={one.replace("/", "_")}>
                {one.replace("/", "")}
              </option>
            ))}
          </select>
        </div>
        <div className={s.filterActions}>
          <button type="submit" className={s.primaryButton}>
            {t("entrust.search")}
          </button>
          <Link to={search({ symbol: null, page: 1 })} className={s.ghostButton}>
            {t("entrust.reset")}
          </Link>
        </div>
      </Form>
      {list.tab === "stops" || list.tab === "stop_history" ? (
        <ContractStopTable stops={list.list} ended={list.tab === "stop_history"} name={table.name} empty={table.empty} pager={table.pager} />
      ) : list.tab === "funding" ? (
        <DataTable
          {...table}
          rows={list.list}
          rowKey={(f) => `${f.symbolName}:${f.createdAt}`}
          testId="contract-funding-list"
          columns={[
            time,
            contract,
            { key: "rate", kind: "number", header: t("entrust.col.funding_rate"), cell: (f) => `${nf.display(percentOf(f.rate), { abbreviate: false })}%` },
            { key: "mark", kind: "number", header: t("contract_page.mark_price"), cell: (f) => <Amount value={f.mark} /> },
            { key: "amount", kind: "number", header: t("entrust.col.funding_amount"), cell: (f) => <Amount value={f.amount} /> },
          ]}
        />
      ) : list.tab === "liquidations" ? (
        <DataTable
          {...table}
          rows={list.list}
          rowKey={(l) => `${l.symbolName}:${l.createdAt}:${l.kind}`}
          testId="contract-liquidation-list"
          columns={[
            time,
            contract,
            { key: "event", header: t("entrust.col.event"), cell: (l) => t(`entrust.liquidation.${l.kind}`) },
            {
              key: "side",
              header: t("contract_page.col_side"),
              cell: (l) => (l.side ? <span className={s.side[l.side === "long" ? "buy" : "sell"]}>{t(`contract_page.side_${l.side}`)}</span> : "--"),
            },
            {
              key: "qty",
              kind: "number",
              header: t("contract_page.col_qty", { unit: t("contract_page.cont") }),
              cell: (l) => nf.display(l.qty, { abbreviate: false }),
            },
            { key: "price", kind: "number", header: t("entrust.col.closed_at"), cell: (l) => <Amount value={l.price} /> },
            { key: "mark", kind: "number", header: t("contract_page.mark_price"), cell: (l) => <Amount value={l.mark} /> },
          ]}
        />
      ) : (
        <DataTable
          {...table}
          rows={list.list}
          rowKey={(o: ContractOrder) => o.orderId}
          testId="contract-order-list"
          columns={[
            time,
            contract,
            {
              key: "direction",
              header: t("contract_page.col_side"),
              cell: (o) => <span className={s.side[o.direction === "1" || o.direction === "4" ? "buy" : "sell"]}>{t(DIRECTIONS[o.direction])}</span>,
            },
            { key: "type", header: t("entrust.col.type"), cell: (o) => t(`entrust.type.${o.type}`) },
            {
              key: "price",
              kind: "number",
              header: t("entrust.col.price"),
              cell: (o) => (o.price === null ? t("entrust.market_price") : <Amount value={o.price} />),
            },
            {
              key: "qty",
              kind: "number",
              header: t("contract_page.col_qty", { unit: t("contract_page.cont") }),
              cell: (o) => nf.display(o.quantity, { abbreviate: false }),
            },
            { key: "filled", kind: "number", header: t("entrust.col.filled"), cell: (o) => nf.display(o.filled, { abbreviate: false }) },
            history && { key: "avg", kind: "number", header: t("entrust.col.avg_price"), cell: (o) => <Amount value={o.averagePrice} /> },
            history && { key: "fee", kind: "number", header: t("entrust.col.fee"), cell: (o) => <Amount value={o.fee} /> },
            history && { key: "realised", kind: "number", header: t("entrust.col.realised"), cell: (o) => <Amount value={o.realised} /> },
            { key: "leverage", kind: "number", header: t("contract_page.col_leverage"), cell: (o) => t("contract_page.leverage_x", { leverage: o.leverage }) },
            {
              key: "status",
              kind: "status",
              header: t("entrust.col.status"),
              cell: (o) => t(`entrust.status.${o.status === "cancelled" && /[1-9]/.test(o.filled) ? "partial_cancelled" : o.status}`),
            },
            !history && {
              key: "actions",
              header: t("entrust.col.actions"),
              cell: (o) => (
                <Form method="post" replace>
                  <input type="hidden" name="orderId" value={o.orderId} />
                  <button
                    type="submit"
                    name="intent"
                    value="cancel"
                    className={s.smallButton}
                    disabled={cancelling === o.orderId}
                    aria-label={t("contract_page.cancel_order", {
                      direction: t(DIRECTIONS[o.direction]),
                      qty: o.quantity,
                      price: o.price === null ? t("entrust.market_price") : nf.display(o.price, { abbreviate: false }),
                    })}
                  >
                    {t("entrust.cancel")}
                  </button>
                </Form>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}

export const ErrorBoundary = PageErrorBoundary;
