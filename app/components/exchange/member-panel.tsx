import { Link } from "@remix-run/react";
import type { SpotOrderView, SpotTradeView } from "#protocol/endpoints/order-history";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import type { MemberTab } from "~/lib/trading-tabs";
import { DataTable } from "../data-table";
import * as s from "./exchange.css";
import { OpenOrdersTable } from "./open-orders";

export interface MemberFunds {
  coin: string;
  /** Spot account: free, and held by open orders. */
  available: string;
  frozen: string;
  /** Funding account: free (deposits land here). */
  funding: string;
}

interface Props {
  tab: MemberTab;
  tabHref: (tab: MemberTab) => string;
  base: string;
  quote: string;
  openOrders: SpotOrderView[];
  /** The member's finished orders and trades in this market: loaded for their tab only. */
  history: SpotOrderView[] | null;
  trades: SpotTradeView[] | null;
  funds: MemberFunds[];
}

const TABS: MemberTab[] = ["open", "history", "trades", "funds"];

/**
 * The member's side of the trading page, in tabs (issue 28 §3): open orders, order history,
 * trades and funds in this market. Tabs are links (`?tab=`): they work without JavaScript and the
 * page loads only the tab's list. On a phone they sit right under the order form.
 */
export function MemberPanel({ tab, tabHref, base, quote, openOrders, history, trades, funds }: Props) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const label = (name: MemberTab) =>
    name === "open" ? t("exchange.open_orders", { count: openOrders.length }) : name === "funds" ? t("exchange.tab_funds") : t(`entrust.tabs.${name}`);
  const time = (iso: string) => iso.slice(5, 19).replace("T", " ");
  const sideCell = (side: "buy" | "sell") => <span className={side === "buy" ? s.tone.up : s.tone.down}>{t(`exchange.side_${side}`)}</span>;
  return (
    <section aria-labelledby="member-panel-title">
      <h2 id="member-panel-title" className="visually-hidden">
        {t("exchange.member_panel")}
      </h2>
      <div className={s.ordersHead}>
        <nav className={s.memberTabs} aria-label={t("exchange.member_panel")}>
          {TABS.map((name) => (
            <Link key={name} to={tabHref(name)} className={s.typeTab} aria-current={name === tab ? "true" : undefined} preventScrollReset replace>
              {label(name)}
            </Link>
          ))}
        </nav>
        <Link to="/account/entrust/spot" className={s.ordersLink}>
          {t("exchange.all_orders")}
        </Link>
      </div>
      <h3 id="member-tab-title" className="visually-hidden">
        {label(tab)}
      </h3>
      {tab === "open" && <OpenOrdersTable orders={openOrders} base={base} quote={quote} labelledBy="member-tab-title" />}
      {tab === "history" && (
        <DataTable
          rows={history ?? []}
          rowKey={(o) => o.orderId}
          name={{ labelledBy: "member-tab-title" }}
          look="compact"
          testId="order-history"
          empty={<p>{t("entrust.empty.history")}</p>}
          columns={[
            { key: "time", header: t("entrust.col.time"), cell: (o) => time(o.createdAt) },
            { key: "side", header: t("entrust.col.side"), cell: (o) => sideCell(o.side) },
            { key: "type", header: t("entrust.col.type"), cell: (o) => t(`exchange.type_${o.type}`, { defaultValue: o.type }) },
            { key: "price", kind: "number", header: t("exchange.price_unit", { unit: quote }), cell: (o) => nf.display(o.price, { abbreviate: false }) },
            { key: "amount", kind: "number", header: t("exchange.amount_unit", { unit: base }), cell: (o) => nf.display(o.quantity) },
            { key: "filled", kind: "number", header: t("entrust.col.filled"), cell: (o) => nf.display(o.filled) },
            { key: "status", header: t("entrust.col.status"), cell: (o) => t(`exchange.status_${o.status}`, { defaultValue: o.status }) },
          ]}
        />
      )}
      {tab === "trades" && (
        <DataTable
          rows={trades ?? []}
          rowKey={(f) => f.tradeId}
          name={{ labelledBy: "member-tab-title" }}
          look="compact"
          testId="my-trades"
          empty={<p>{t("entrust.empty.trades")}</p>}
          columns={[
            { key: "time", header: t("entrust.col.time"), cell: (f) => time(f.createdAt) },
            { key: "side", header: t("entrust.col.side"), cell: (f) => sideCell(f.side) },
            { key: "role", header: t("entrust.col.role"), cell: (f) => t(`entrust.role.${f.role}`) },
            { key: "price", kind: "number", header: t("exchange.price_unit", { unit: quote }), cell: (f) => nf.display(f.price, { abbreviate: false }) },
            { key: "amount", kind: "number", header: t("exchange.amount_unit", { unit: base }), cell: (f) => nf.display(f.quantity) },
            { key: "fee", kind: "number", header: t("entrust.col.fee"), cell: (f) => `${nf.display(f.fee)} ${f.feeCoin}` },
          ]}
        />
      )}
      {tab === "funds" && (
        <DataTable
          rows={funds}
          rowKey={(f) => f.coin}
          name={{ labelledBy: "member-tab-title" }}
          look="compact"
          testId="my-funds"
          empty={null}
          columns={[
            { key: "coin", header: t("exchange.funds_coin"), cell: (f) => f.coin },
            { key: "available", kind: "number", header: t("exchange.funds_available"), cell: (f) => nf.display(f.available, { abbreviate: false }) },
            { key: "frozen", kind: "number", header: t("exchange.funds_frozen"), cell: (f) => nf.display(f.frozen, { abbreviate: false }) },
            { key: "funding", kind: "number", header: t("exchange.funds_funding"), cell: (f) => nf.display(f.funding, { abbreviate: false }) },
          ]}
        />
      )}
    </section>
  );
}
