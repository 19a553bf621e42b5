import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SpotOrderView } from "#protocol/endpoints/order-history";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "./exchange.css";

/** The member's open orders in this market, each with a cancel button (a real form); numbers in the member's language. */
export function OpenOrders({ orders, base, quote }: { orders: SpotOrderView[]; base: string; quote: string }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const navigation = useNavigation();
  const cancelling = navigation.formData?.get("intent") === "cancel" ? navigation.formData.get("orderId") : null;
  /** The cancel button's name says which order, with its numbers as the row shows them. */
  const cancelLabel = (o: SpotOrderView) =>
    t("exchange.cancel_order", {
      side: t(`exchange.side_${o.side}`),
      price: o.price === null ? "" : nf.display(o.price, { abbreviate: false }),
      amount: o.quantity === null ? "" : nf.display(o.quantity),
    });
  return (
    <section aria-labelledby="open-orders-title">
      <div className={s.ordersHead}>
        <h2 id="open-orders-title" className={s.panelTitle} style={{ borderBottom: 0 }}>
          {t("exchange.open_orders", { count: orders.length })}
        </h2>
        <Link to="/account/entrust/spot" className={s.ordersLink}>
          {t("exchange.all_orders")}
        </Link>
      </div>
      {orders.length === 0 ? (
        <p className={s.empty}>{t("exchange.no_open_orders")}</p>
      ) : (
        <div style={{ overflowX: "auto" }}>
          <table className={s.table} style={{ minWidth: 720 }} data-testid="open-orders">
            <thead>
              <tr>
                <th scope="col">{t("exchange.col_time")}</th>
                <th scope="col">{t("exchange.col_side")}</th>
                <th scope="col">{t("exchange.col_type")}</th>
                <th scope="col">{t("exchange.price_unit", { unit: quote })}</th>
                <th scope="col">{t("exchange.col_trigger")}</th>
                <th scope="col">{t("exchange.amount_unit", { unit: base })}</th>
                <th scope="col">{t("exchange.col_filled")}</th>
                <th scope="col">{t("exchange.col_status")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("exchange.col_actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.orderId}>
                  <td>{o.createdAt.slice(5, 19).replace("T", " ")}</td>
                  <td className={o.side === "buy" ? s.tone.up : s.tone.down}>{t(`exchange.side_${o.side}`)}</td>
                  <td>{t(`exchange.type_${o.type}`, { defaultValue: o.type })}</td>
                  <td>{nf.display(o.price, { abbreviate: false })}</td>
                  <td>
                    {[o.stopProfitPrice, o.stopLossPrice]
                      .filter(Boolean)
                      .map((p) => nf.display(p, { abbreviate: false }))
                      .join(" / ") || "--"}
                  </td>
                  <td>{nf.display(o.quantity)}</td>
                  <td>{nf.display(o.filled)}</td>
                  <td>{t(`exchange.status_${o.status}`, { defaultValue: o.status })}</td>
                  <td>
                    <Form method="post" replace preventScrollReset>
                      <input type="hidden" name="intent" value="cancel" />
                      <input type="hidden" name="orderId" value={o.orderId} />
                      <button type="submit" className={s.cancelButton} disabled={cancelling === o.orderId} aria-label={cancelLabel(o)}>
                        {t("exchange.cancel")}
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
