import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import type { SpotOrderView } from "#protocol/endpoints/order-history";
import { useNumberFormat } from "~/lib/use-number-format";
import { DataTable } from "../data-table";
import * as s from "./exchange.css";

/** The member's open orders in this market, each with a cancel button (a real form); numbers in the member's language. */
export function OpenOrdersTable({ orders, base, quote, labelledBy }: { orders: SpotOrderView[]; base: string; quote: string; labelledBy: string }) {
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
    <DataTable
      rows={orders}
      rowKey={(o) => o.orderId}
      name={{ labelledBy }}
      look="compact"
      testId="open-orders"
      empty={<p>{t("exchange.no_open_orders")}</p>}
      columns={[
        { key: "time", header: t("exchange.col_time"), cell: (o) => o.createdAt.slice(5, 19).replace("T", " ") },
        {
          key: "side",
          header: t("exchange.col_side"),
          cell: (o) => <span className={o.side === "buy" ? s.tone.up : s.tone.down}>{t(`exchange.side_${o.side}`)}</span>,
        },
        { key: "type", header: t("exchange.col_type"), cell: (o) => t(`exchange.type_${o.type}`, { defaultValue: o.type }) },
        { key: "price", kind: "number", header: t("exchange.price_unit", { unit: quote }), cell: (o) => nf.display(o.price, { abbreviate: false }) },
        {
          key: "trigger",
          kind: "number",
          header: t("exchange.col_trigger"),
          cell: (o) =>
            [o.stopProfitPrice, o.stopLossPrice]
              .filter(Boolean)
              .map((p) => nf.display(p, { abbreviate: false }))
              .join(" / ") || "--",
        },
        { key: "amount", kind: "number", header: t("exchange.amount_unit", { unit: base }), cell: (o) => nf.display(o.quantity) },
        { key: "filled", kind: "number", header: t("exchange.col_filled"), cell: (o) => nf.display(o.filled) },
        { key: "status", header: t("exchange.col_status"), cell: (o) => t(`exchange.status_${o.status}`, { defaultValue: o.status }) },
        {
          key: "actions",
          header: <span className="visually-hidden">{t("exchange.col_actions")}</span>,
          cell: (o) => (
            <Form method="post" replace preventScrollReset>
              <input type="hidden" name="intent" value="cancel" />
              <input type="hidden" name="orderId" value={o.orderId} />
              <button type="submit" className={s.cancelButton} disabled={cancelling === o.orderId} aria-label={cancelLabel(o)}>
                {t("exchange.cancel")}
              </button>
            </Form>
          ),
        },
      ]}
    />
  );
}
