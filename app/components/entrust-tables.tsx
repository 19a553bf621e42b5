import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SpotOrderView, SpotTradeView } from "#protocol/endpoints/order-history";
import { formatDateTimeSeconds } from "~/lib/dates";
import { useNumberFormat } from "~/lib/use-number-format";
import { useShell } from "~/lib/use-shell";
import * as s from "~/routes/account.entrust.css";

/** Tables of the orders area: orders (open or finished), trades, and the pager under them. */

const hasValue = (v: string | null | undefined) => v != null && /[1-9]/.test(v);
const coins = (symbol: string) => {
  const [base = symbol, quote = ""] = symbol.split("/");
  return { base, quote };
};

/** A decimal for display (spec §5, in the member's language) with its coin. */
export function Amount({ value, coin }: { value: string | null | undefined; coin?: string }) {
  const nf = useNumberFormat();
  if (value == null) return <>--</>;
  return (
    <>
      {nf.display(value)}
      {coin ? <span className={s.unit}>{coin}</span> : null}
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

export function OrderTable({
  orders,
  kind,
  label,
  actions,
}: {
  orders: SpotOrderView[];
  kind: "open" | "history";
  label: string;
  actions: (order: SpotOrderView) => ReactNode;
}) {
  const { t } = useTranslation();
  const when = useWhen();
  // The trigger column appears only when a stop order is listed.
  const triggers = orders.some((o) => o.stopProfitPrice || o.stopLossPrice);
  return (
    <div className={s.tableWrap}>
      <table className={s.table} aria-label={label}>
        <thead>
          <tr>
            <th scope="col" className={s.th}>
              {t("entrust.col.time")}
            </th>
            <th scope="col" className={s.th}>
              {t("entrust.col.pair")}
            </th>
            <th scope="col" className={s.th}>
              {t("entrust.col.type")}
            </th>
            <th scope="col" className={s.th}>
              {t("entrust.col.side")}
            </th>
            <th scope="col" className={s.thNumber}>
              {t("entrust.col.price")}
            </th>
            {triggers ? (
              <th scope="col" className={s.thNumber}>
                {t("entrust.col.trigger")}
              </th>
            ) : null}
            <th scope="col" className={s.thNumber}>
              {t("entrust.col.amount")}
            </th>
            <th scope="col" className={s.thNumber}>
              {t("entrust.col.filled")}
            </th>
            <th scope="col" className={s.thNumber}>
              {t("entrust.col.avg_price")}
            </th>
            {kind === "history" ? (
              <th scope="col" className={s.thNumber}>
                {t("entrust.col.total")}
              </th>
            ) : null}
            {kind === "history" ? (
              <th scope="col" className={s.thNumber}>
                {t("entrust.col.fee")}
              </th>
            ) : null}
            <th scope="col" className={s.th}>
              {t("entrust.col.status")}
            </th>
            <th scope="col" className={s.thNumber}>
              {t("entrust.col.actions")}
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => {
            const { base, quote } = coins(order.symbol);
            return (
              <tr key={order.orderId}>
                <td className={s.tdTime}>{when(order.createdAt)}</td>
                <td className={s.td}>{order.symbol}</td>
                <td className={s.td}>
                  <TypeLabel order={order} />
                </td>
                <td className={s.td}>
                  <SideLabel side={order.side} />
                </td>
                <td className={s.tdNumber}>{order.price === null ? t("entrust.market_price") : <Amount value={order.price} coin={quote} />}</td>
                {triggers ? (
                  <td className={s.tdNumber}>
                    <Triggers order={order} />
                  </td>
                ) : null}
                <td className={s.tdNumber}>
                  <Ordered order={order} />
                </td>
                <td className={s.tdNumber}>
                  <Amount value={order.filled} coin={base} />
                </td>
                <td className={s.tdNumber}>{order.avgPrice === null ? "--" : <Amount value={order.avgPrice} coin={quote} />}</td>
                {kind === "history" ? (
                  <td className={s.tdNumber}>
                    <Amount value={order.filledValue} coin={quote} />
                  </td>
                ) : null}
                {kind === "history" ? (
                  <td className={s.tdNumber}>
                    <Amount value={order.fee} coin={order.feeCoin} />
                  </td>
                ) : null}
                <td className={s.tdStatus}>
                  <OrderStatus order={order} />
                </td>
                <td className={s.td}>
                  <div className={s.rowActions}>{actions(order)}</div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function TradeTable({ trades, label, orderLinks = true }: { trades: SpotTradeView[]; label: string; orderLinks?: boolean }) {
  const { t } = useTranslation();
  const when = useWhen();
  return (
    <div className={s.tableWrap}>
      <table className={s.table} aria-label={label}>
        <thead>
          <tr>
            <th scope="col" className={s.th}>
              {t("entrust.col.time")}
            </th>
            <th scope="col" className={s.th}>
              {t("entrust.col.pair")}
            </th>
            <th scope="col" className={s.th}>
              {t("entrust.col.side")}
            </th>
            <th scope="col" className={s.th}>
              {t("entrust.col.role")}
            </th>
            <th scope="col" className={s.thNumber}>
              {t("entrust.col.price")}
            </th>
            <th scope="col" className={s.thNumber}>
              {t("entrust.col.quantity")}
            </th>
            <th scope="col" className={s.thNumber}>
              {t("entrust.col.value")}
            </th>
            <th scope="col" className={s.thNumber}>
              {t("entrust.col.fee")}
            </th>
            {orderLinks ? (
              <th scope="col" className={s.thNumber}>
                {t("entrust.col.order")}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {trades.map((trade) => {
            const { base, quote } = coins(trade.symbol);
            return (
              <tr key={trade.tradeId}>
                <td className={s.tdTime}>{when(trade.createdAt)}</td>
                <td className={s.td}>{trade.symbol}</td>
                <td className={s.td}>
                  <SideLabel side={trade.side} />
                </td>
                <td className={s.td}>{t(`entrust.role.${trade.role}`)}</td>
                <td className={s.tdNumber}>
                  <Amount value={trade.price} coin={quote} />
                </td>
                <td className={s.tdNumber}>
                  <Amount value={trade.quantity} coin={base} />
                </td>
                <td className={s.tdNumber}>
                  <Amount value={trade.value} coin={quote} />
                </td>
                <td className={s.tdNumber}>
                  <Amount value={trade.fee} coin={trade.feeCoin} />
                </td>
                {orderLinks ? (
                  <td className={s.tdNumber}>
                    <Link
                      to={`/account/entrust/spot/${encodeURIComponent(trade.orderId)}`}
                      className={s.link}
                      aria-label={t("entrust.order_details_of", { id: trade.orderId })}
                    >
                      {t("entrust.details")}
                    </Link>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Previous / next links with "page x of y"; a link, so it works without JavaScript. */
export function Pager({ current, pages, total, hrefFor }: { current: number; pages: number; total: number; hrefFor: (page: number) => string }) {
  const { t } = useTranslation();
  if (total === 0) return null;
  return (
    <nav className={s.paging} aria-label={t("entrust.paging_label")}>
      <span className={s.pageInfo}>{t("entrust.page_of", { current, pages: Math.max(pages, 1), total })}</span>
      {current > 1 ? (
        <Link to={hrefFor(current - 1)} className={s.smallButton} rel="prev">
          {t("entrust.previous")}
        </Link>
      ) : (
        <span className={s.disabledLink} aria-disabled="true">
          {t("entrust.previous")}
        </span>
      )}
      {current < pages ? (
        <Link to={hrefFor(current + 1)} className={s.smallButton} rel="next">
          {t("entrust.next")}
        </Link>
      ) : (
        <span className={s.disabledLink} aria-disabled="true">
          {t("entrust.next")}
        </span>
      )}
    </nav>
  );
}
