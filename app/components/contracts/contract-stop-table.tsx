import { Form, useNavigation } from "@remix-run/react";
import type { ContractStop } from "#protocol/endpoints/contracts";
import { CONTRACT_DIRECTION_KEYS as DIRECTION_KEYS } from "~/lib/contract-choices";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { DataTable } from "../data-table";
import * as s from "../exchange/exchange.css";

/**
 * A member's conditional orders (decision 048): stop orders and positions' take profit and stop
 * loss. Waiting ones (`ended` false) each with a cancel button (a real form, without JavaScript
 * too); ended ones with how they ended: triggered (the order is in the order lists, same id),
 * failed (its order was refused when it fired) or cancelled, and the price that fired it.
 */
export function ContractStopTable({
  stops,
  ended = false,
  look,
  name,
  empty,
  pager,
}: {
  stops: ContractStop[];
  ended?: boolean;
  look?: "compact" | "panel";
  name: { labelledBy: string } | { caption: string };
  empty: React.ReactNode;
  pager?: { current: number; pages: number; total: number; hrefFor: (n: number) => string };
}) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const navigation = useNavigation();
  const cancelling = navigation.formData?.get("intent") === "cancel" ? navigation.formData.get("orderId") : null;
  const price = (v: string | null) => (v === null ? "--" : nf.display(v, { abbreviate: false }));
  const source = (stop: ContractStop) => t(stop.triggerBy === "mark" ? "contract_page.mark_price" : "contract_page.last_price");
  const kindOf = (stop: ContractStop) =>
    stop.quantity === null ? t("contract_page.tpsl") : t(stop.price === null ? "contract_page.stop_market" : "contract_page.stop_limit");
  const triggerOf = (stop: ContractStop) =>
    stop.quantity === null
      ? [
          stop.takeProfit === null ? null : t("contract_page.tp_at", { price: price(stop.takeProfit) }),
          stop.stopLoss === null ? null : t("contract_page.sl_at", { price: price(stop.stopLoss) }),
        ]
          .filter(Boolean)
          .join(" · ")
      : price(stop.triggerPrice);
  return (
    <DataTable
      rows={stops}
      rowKey={(x) => x.stopId}
      name={name}
      {...(look ? { look } : {})}
      reflow="cards"
      testId={ended ? "contract-stop-history" : "contract-stops"}
      empty={empty}
      {...(pager ? { pager } : {})}
      columns={[
        { key: "time", header: t("exchange.col_time"), cell: (x) => (ended ? x.updatedAt : x.createdAt).slice(5, 19).replace("T", " ") },
        { key: "symbol", header: t("contract_page.col_contract"), cell: (x) => x.symbolName.replace("/", "") },
        {
          key: "direction",
          header: t("contract_page.col_side"),
          cell: (x) => <span className={x.direction === "1" || x.direction === "4" ? s.tone.up : s.tone.down}>{t(DIRECTION_KEYS[x.direction])}</span>,
        },
        { key: "kind", header: t("exchange.col_type"), cell: kindOf },
        { key: "trigger", header: t("contract_page.col_trigger"), wide: true, cell: (x) => `${triggerOf(x)} (${source(x)})` },
        {
          key: "price",
          kind: "number",
          header: t("exchange.price"),
          cell: (x) => (x.price === null ? t("exchange.type_market") : price(x.price)),
        },
        {
          key: "qty",
          kind: "number",
          header: t("contract_page.col_qty", { unit: t("contract_page.cont") }),
          cell: (x) => (x.quantity === null ? t("contract_page.whole_position") : nf.display(x.quantity, { abbreviate: false })),
        },
        ended && {
          key: "status",
          kind: "status",
          header: t("entrust.col.status"),
          cell: (x) => (
            <>
              {t(`contract_page.stop_status.${x.status}`)}
              {x.firedPrice === null ? null : ` @ ${price(x.firedPrice)}`}
              {x.reason && x.status === "cancelled" ? ` (${t(`contract_page.stop_reason.${reasonKey(x.reason)}`)})` : null}
            </>
          ),
        },
        !ended && {
          key: "actions",
          header: <span className="visually-hidden">{t("exchange.col_actions")}</span>,
          cell: (x) => (
            <Form method="post" replace preventScrollReset>
              <input type="hidden" name="intent" value="cancel" />
              <input type="hidden" name="orderId" value={x.stopId} />
              <button
                type="submit"
                className={s.cancelButton}
                disabled={cancelling === x.stopId}
                aria-label={t("contract_page.cancel_stop", { kind: kindOf(x), contract: x.symbolName.replace("/", ""), trigger: triggerOf(x) })}
              >
                {t("exchange.cancel")}
              </button>
            </Form>
          ),
        },
      ]}
    />
  );
}

const REASONS = ["user", "replaced", "position_closed", "liquidation", "close_all"] as const;
/** A cancel's reason as a text key (anything else the engine might say reads as "by the exchange"). */
function reasonKey(reason: string): (typeof REASONS)[number] | "other" {
  return (REASONS as readonly string[]).includes(reason) ? (reason as (typeof REASONS)[number]) : "other";
}
