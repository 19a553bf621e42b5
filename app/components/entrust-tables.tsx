import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/lib/i18n";
import type { MarginRecordView } from "#protocol/endpoints/margin";
import type { SpotOrderView, SpotTradeView } from "#protocol/endpoints/order-history";
import { formatDateTimeSeconds } from "~/lib/dates";
import { useNumberFormat } from "~/lib/use-number-format";
import { useShell } from "~/lib/use-shell";
import * as s from "~/styles/account-entrust.css";
import { DataTable, type PagerProps } from "./data-table";

/** Tables of the orders area: orders (open or finished) and trades, each a `DataTable`. */

const hasValue = (v: string | null | undefined) => v != null && /[1-9]/.test(v);
const coins = (symbol: string) => {
  const [base = symbol, quote = ""] = symbol.split("/");
  return { base, quote };
};

/**
 * A decimal for display (spec §5, in the member's language) with its coin after a space, as every
 * amount is written (`0,01 BTC`, never `0,01BTC`): the space is in the text, not only a margin, so
 * a copy, a screen reader and a search all read two words.
 */
export function Amount({ value, coin }: { value: string | null | undefined; coin?: string }) {
  const nf = useNumberFormat();
  if (value == null) return <>--</>;
  return (
    <>
      {nf.display(value)}
      {coin ? (
        <>
          {" "}
          <span className={s.unit}>{coin}</span>
        </>
      ) : null}
    </>
  );
}

export function useWhen() {
  const { lang } = useShell();
  return (iso: string) => formatDateTimeSeconds(iso, lang);
}

const REASONS = ["user", "ioc", "self-trade", "no-liquidity", "moved", "post-only", "fok", "rejected"];

/** Open, Partially filled, Waiting, Filled, Cancelled, Partially filled then cancelled (unknown statuses show as they are). */
export function OrderStatus({ order }: { order: SpotOrderView }) {
  const { t } = useTranslation();
  const partly = hasValue(order.filled);
  const key = order.status === "open" && partly ? "partial" : order.status === "cancelled" && partly ? "partial_cancelled" : order.status;
  const known = ["open", "partial", "waiting", "filled", "cancelled", "partial_cancelled"].includes(key);
  const tone = key === "filled" || key === "partial_cancelled" ? "done" : key === "cancelled" ? "cancelled" : "open";
  return (
    <span>
      <span className={s.status[tone]}>{known ? t(`entrust.status.${key}`) : order.status}</span>
      {order.status === "cancelled" && order.reason ? (
        <span className={s.reason}>
          {/* A space so that the row reads "Cancelled by you" as text, too. */}{" "}
          {REASONS.includes(order.reason) ? t(`entrust.reason.${order.reason.replace(/-/g, "_")}`) : order.reason}
        </span>
      ) : null}
    </span>
  );
}

export function SideLabel({ side }: { side: "buy" | "sell" }) {
  const { t } = useTranslation();
  return <span className={s.side[side]}>{t(`entrust.side.${side}`)}</span>;
}

/** Limit or market; a stop order is a stop-limit or stop-market (unknown kinds show as they are). */
export function TypeLabel({ order }: { order: SpotOrderView }) {
  const { t } = useTranslation();
  if (!["limit", "market"].includes(order.type)) return <>{order.type}</>;
  const stop = order.stopProfitPrice !== null || order.stopLossPrice !== null;
  return <>{t(`entrust.type.${stop ? `stop_${order.type}` : order.type}`)}</>;
}

/** Stop-profit / stop-loss prices of a stop order; the one that fired says so. */
export function Triggers({ order }: { order: SpotOrderView }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const parts: string[] = [];
  const fired = (kind: string) => (order.triggeredBy === kind ? ` (${t("entrust.fired")})` : "");
  if (order.stopProfitPrice) parts.push(`${t("entrust.stop_profit")} ${nf.display(order.stopProfitPrice)}${fired("profit")}`);
  if (order.stopLossPrice) parts.push(`${t("entrust.stop_loss")} ${nf.display(order.stopLossPrice)}${fired("loss")}`);
  return <>{parts.length ? parts.join(" / ") : "--"}</>;
}

/** The ordered amount: base coin, or the quote budget of a market buy by money. */
function Ordered({ order }: { order: SpotOrderView }) {
  const { base, quote } = coins(order.symbol);
  return order.quantity !== null ? <Amount value={order.quantity} coin={base} /> : <Amount value={order.money} coin={quote} />;
}

interface TableParts {
  /** The table's name (its tab or heading). */
  label: string;
  /** What shows when there are no rows. */
  empty: ReactNode;
  pager?: PagerProps;
}

/** Orders, open or finished: the history adds the traded value and the fee; the trigger column shows only with a stop order. */
export function OrderTable({
  orders,
  kind,
  actions,
  label,
  empty,
  pager,
}: TableParts & { orders: SpotOrderView[]; kind: "open" | "history"; actions: (order: SpotOrderView) => ReactNode }) {
  const { t } = useTranslation();
  const when = useWhen();
  const triggers = orders.some((o) => o.stopProfitPrice || o.stopLossPrice);
  const history = kind === "history";
  return (
    <DataTable
      rows={orders}
      rowKey={(o) => o.orderId}
      name={{ caption: label }}
      empty={empty}
      pager={pager}
      columns={[
        { key: "time", kind: "time", header: t("entrust.col.time"), cell: (o) => when(o.createdAt) },
        { key: "pair", header: t("entrust.col.pair"), cell: (o) => o.symbol },
        { key: "type", header: t("entrust.col.type"), cell: (o) => <TypeLabel order={o} /> },
        { key: "side", header: t("entrust.col.side"), cell: (o) => <SideLabel side={o.side} /> },
        {
          key: "price",
          kind: "number",
          header: t("entrust.col.price"),
          cell: (o) => (o.price === null ? t("entrust.market_price") : <Amount value={o.price} coin={coins(o.symbol).quote} />),
        },
        triggers && { key: "trigger", kind: "number", header: t("entrust.col.trigger"), cell: (o) => <Triggers order={o} /> },
        { key: "amount", kind: "number", header: t("entrust.col.amount"), cell: (o) => <Ordered order={o} /> },
        { key: "filled", kind: "number", header: t("entrust.col.filled"), cell: (o) => <Amount value={o.filled} coin={coins(o.symbol).base} /> },
        {
          key: "avg",
          kind: "number",
          header: t("entrust.col.avg_price"),
          cell: (o) => (o.avgPrice === null ? "--" : <Amount value={o.avgPrice} coin={coins(o.symbol).quote} />),
        },
        history && { key: "total", kind: "number", header: t("entrust.col.total"), cell: (o) => <Amount value={o.filledValue} coin={coins(o.symbol).quote} /> },
        history && { key: "fee", kind: "number", header: t("entrust.col.fee"), cell: (o) => <Amount value={o.fee} coin={o.feeCoin} /> },
        { key: "status", kind: "status", header: t("entrust.col.status"), cell: (o) => <OrderStatus order={o} /> },
        { key: "actions", kind: "number", header: t("entrust.col.actions"), cell: (o) => <div className={s.rowActions}>{actions(o)}</div> },
      ]}
    />
  );
}

/** Trades (fills), each with a link to its order unless the page is that order's. */
export function TradeTable({ trades, label, empty, pager, orderLinks = true }: TableParts & { trades: SpotTradeView[]; orderLinks?: boolean }) {
  const { t } = useTranslation();
  const when = useWhen();
  return (
    <DataTable
      rows={trades}
      rowKey={(trade) => trade.tradeId}
      name={{ caption: label }}
      empty={empty}
      pager={pager}
      columns={[
        { key: "time", kind: "time", header: t("entrust.col.time"), cell: (trade) => when(trade.createdAt) },
        { key: "pair", header: t("entrust.col.pair"), cell: (trade) => trade.symbol },
        { key: "side", header: t("entrust.col.side"), cell: (trade) => <SideLabel side={trade.side} /> },
        { key: "role", header: t("entrust.col.role"), cell: (trade) => t(`entrust.role.${trade.role}`) },
        { key: "price", kind: "number", header: t("entrust.col.price"), cell: (trade) => <Amount value={trade.price} coin={coins(trade.symbol).quote} /> },
        {
          key: "quantity",
          kind: "number",
          header: t("entrust.col.quantity"),
          cell: (trade) => <Amount value={trade.quantity} coin={coins(trade.symbol).base} />,
        },
        { key: "value", kind: "number", header: t("entrust.col.value"), cell: (trade) => <Amount value={trade.value} coin={coins(trade.symbol).quote} /> },
        { key: "fee", kind: "number", header: t("entrust.col.fee"), cell: (trade) => <Amount value={trade.fee} coin={trade.feeCoin} /> },
        orderLinks && {
          key: "order",
          kind: "number",
          header: t("entrust.col.order"),
          cell: (trade) => (
            <Link
              to={`/account/entrust/spot/${encodeURIComponent(trade.orderId)}`}
              className={s.link}
              aria-label={t("entrust.order_details_of", { id: trade.orderId })}
            >
              {t("entrust.details")}
            </Link>
          ),
        },
      ]}
    />
  );
}

/** A margin account's records: borrows, repayments (principal and interest), interest charges, transfers and write-offs. */
export function MarginRecordTable({ records, label, empty, pager, isolated }: TableParts & { records: MarginRecordView[]; isolated: boolean }) {
  const { t } = useTranslation();
  const when = useWhen();
  return (
    <DataTable
      rows={records}
      rowKey={(r) => r.id}
      name={{ caption: label }}
      empty={empty}
      pager={pager}
      columns={[
        { key: "time", kind: "time", header: t("entrust.col.time"), cell: (r) => when(r.createdAt) },
        isolated && { key: "pair", header: t("entrust.col.pair"), cell: (r) => r.symbolName ?? "" },
        { key: "kind", header: t("entrust.col.record"), cell: (r) => t(`entrust.record_kind.${r.kind}`) },
        { key: "amount", kind: "number", header: t("entrust.col.amount"), cell: (r) => <Amount value={r.amount} coin={r.coin} /> },
        { key: "principal", kind: "number", header: t("entrust.col.principal"), cell: (r) => <Amount value={r.principal} coin={r.coin} /> },
        { key: "interest", kind: "number", header: t("entrust.col.interest"), cell: (r) => <Amount value={r.interest} coin={r.coin} /> },
      ]}
    />
  );
}
