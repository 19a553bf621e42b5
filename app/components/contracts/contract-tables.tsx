import type { SubmissionResult } from "@conform-to/dom";
import { Form, useNavigation } from "@remix-run/react";
import type { ContractOrder, ContractPosition } from "#protocol/endpoints/contracts";
import { formErrorText } from "~/lib/forms/form-error";
import { CONTRACT_DIRECTION_KEYS as DIRECTION_KEYS } from "~/lib/contract-choices";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { DataTable } from "../data-table";
import * as s from "../exchange/exchange.css";

const toneOfDirection = (d: ContractOrder["direction"]) => (d === "1" || d === "4" ? s.tone.up : s.tone.down);
const pnlTone = (v: string | null) => (!v || !/[1-9]/.test(v) ? undefined : v.startsWith("-") ? s.tone.down : s.tone.up);

/** Whether this page is posting the form of `intent` for `id` now (its button shows it is busy). */
function usePosting(intent: string, field: string) {
  const navigation = useNavigation();
  return navigation.formData?.get("intent") === intent ? String(navigation.formData.get(field) ?? "") : null;
}

/**
 * The member's positions of the page's contract type: size, entry, mark, liquidation price,
 * margin (with a form to add or take back margin), profit at the mark and its return; each closes
 * at market with one button. Real forms: they work without JavaScript; each carries its own key.
 */
export function ContractPositions({
  positions,
  keys,
  labelledBy,
  marginReply,
}: {
  positions: ContractPosition[];
  keys: Record<string, { close: string; margin: string; tpsl: string }>;
  labelledBy: string;
  /** A refused margin change or take profit and stop loss: which row's form, and its reply. */
  marginReply: { form: string; result: SubmissionResult<string[]> } | null;
}) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const closing = usePosting("close", "symbol");
  const cont = t("contract_page.cont");
  return (
    <DataTable
      rows={positions}
      rowKey={(p) => p.symbolName}
      name={{ labelledBy }}
      look="compact"
      reflow="cards"
      testId="contract-positions"
      empty={<p>{t("contract_page.no_positions")}</p>}
      columns={[
        { key: "symbol", header: t("contract_page.col_contract"), cell: (p) => p.symbolName.replace("/", "") },
        {
          key: "side",
          header: t("contract_page.col_side"),
          cell: (p) => (
            <span className={p.side === "long" ? s.tone.up : s.tone.down}>
              {t(`contract_page.side_${p.side}`)} {t("contract_page.leverage_x", { leverage: p.leverage })} · {t(`contract_page.mode_${p.marginMode}`)}
            </span>
          ),
        },
        { key: "qty", kind: "number", header: t("contract_page.col_qty", { unit: cont }), cell: (p) => nf.display(p.qty, { abbreviate: false }) },
        { key: "entry", kind: "number", header: t("contract_page.col_entry"), cell: (p) => nf.display(p.entryPrice, { abbreviate: false }) },
        { key: "mark", kind: "number", header: t("contract_page.mark_price"), cell: (p) => nf.display(p.markPrice, { abbreviate: false }) },
        {
          key: "liq",
          kind: "number",
          header: t("contract_page.col_liquidation"),
          cell: (p) => <span data-testid="liquidation-price">{p.liquidationPrice ? nf.display(p.liquidationPrice, { abbreviate: false }) : "--"}</span>,
        },
        {
          key: "margin",
          kind: "number",
          header: t("contract_page.col_margin"),
          cell: (p) => `${nf.display(p.margin, { abbreviate: false })} ${p.settleCoin}`,
        },
        {
          key: "pnl",
          kind: "number",
          header: t("contract_page.col_pnl"),
          cell: (p) => (
            <span className={pnlTone(p.unrealisedPnl)} data-testid="unrealised-pnl">
              {p.unrealisedPnl === null ? "--" : `${nf.display(p.unrealisedPnl, { abbreviate: false })} ${p.settleCoin}`}
              {p.roe === null ? null : ` (${nf.fixed(p.roe, 2)}%)`}
            </span>
          ),
        },
        {
          key: "tpsl",
          header: t("contract_page.tpsl"),
          wide: true,
          cell: (p) => {
            const key = keys[p.symbolName];
            return key ? <PositionTpsl position={p} idempotencyKey={key.tpsl} reply={marginReply} /> : null;
          },
        },
        {
          key: "actions",
          header: <span className="visually-hidden">{t("exchange.col_actions")}</span>,
          label: t("exchange.col_actions"),
          wide: true,
          cell: (p) => {
            const key = keys[p.symbolName];
            const reply = marginReply?.form === `margin-${p.symbolName.replace("/", "_")}` ? marginReply.result : null;
            const errors = [...(reply?.error?.[""] ?? []), ...(reply?.error?.amount ?? [])];
            const errorId = `margin-error-${p.symbolName.replace("/", "_")}`;
            const contract = p.symbolName.replace("/", "");
            return key ? (
              <div className={s.positionActions}>
                <Form method="post" replace preventScrollReset>
                  <input type="hidden" name="intent" value="close" />
                  <input type="hidden" name="symbol" value={p.symbolName.replace("/", "_")} />
                  <input type="hidden" name="side" value={p.side} />
                  <input type="hidden" name="qty" value={p.qty} />
                  <input type="hidden" name="idempotencyKey" value={key.close} />
                  <button type="submit" className={s.cancelButton} disabled={closing === p.symbolName.replace("/", "_")}>
                    {t("contract_page.close_market", { contract })}
                  </button>
                </Form>
                {/* A cross position's margin is the free balance: nothing to add or take back. */}
                {p.marginMode === "cross" ? null : (
                  <Form method="post" replace preventScrollReset className={s.marginForm} aria-label={t("contract_page.margin_title", { contract })}>
                    <input type="hidden" name="intent" value="margin" />
                    <input type="hidden" name="symbol" value={p.symbolName.replace("/", "_")} />
                    <input type="hidden" name="idempotencyKey" value={key.margin} />
                    <select name="change" className={s.marginInput} aria-label={t("contract_page.margin_change")} defaultValue="add">
                      <option value="add">{t("contract_page.margin_add")}</option>
                      <option value="remove">{t("contract_page.margin_remove")}</option>
                    </select>
                    <input
                      name="amount"
                      inputMode="decimal"
                      autoComplete="off"
                      className={s.marginInput}
                      aria-label={t("contract_page.margin_amount", { coin: p.settleCoin })}
                      aria-invalid={errors.length ? true : undefined}
                      aria-describedby={errors.length ? errorId : undefined}
                    />
                    <button type="submit" className={s.cancelButton}>
                      {t("contract_page.margin_apply")}
                    </button>
                    {errors.length ? (
                      <p id={errorId} className={s.fieldError}>
                        {errors
                          .map((e) => formErrorText(e, t, { field: t("contract_page.col_margin"), max: 8, mark: nf.marks.decimal, example: "12.5" }))
                          .join(" ")}
                      </p>
                    ) : null}
                  </Form>
                )}
              </div>
            ) : null;
          },
        },
      ]}
    />
  );
}

/**
 * A position's take profit and stop loss (decision 048): what is set, and a disclosure with the
 * form that sets them (either or both, and the price they watch), or cancels them. Real forms:
 * `<details>` opens by keyboard and without JavaScript; a refusal opens it with the message.
 */
function PositionTpsl({
  position: p,
  idempotencyKey,
  reply,
}: {
  position: ContractPosition;
  idempotencyKey: string;
  reply: { form: string; result: SubmissionResult<string[]> } | null;
}) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const symbol = p.symbolName.replace("/", "_");
  const contract = p.symbolName.replace("/", "");
  const mine = reply?.form === `tpsl-${symbol}` ? reply.result : null;
  const errors = [...(mine?.error?.[""] ?? []), ...(mine?.error?.takeProfit ?? []), ...(mine?.error?.stopLoss ?? [])];
  const errorId = `tpsl-error-${symbol}`;
  const set = p.tpsl;
  const shown = (v: string | null | undefined) => (v ? nf.display(v, { abbreviate: false }) : "--");
  const sent = (name: string) => (mine?.initialValue?.[name] as string | undefined) ?? undefined;
  return (
    <div className={s.tpsl}>
      <span data-testid="position-tpsl">
        {shown(set?.takeProfit)} / {shown(set?.stopLoss)}
      </span>
      <details className={s.tpslDetails} open={errors.length ? true : undefined}>
        <summary className={s.cancelButton} aria-label={t("contract_page.tpsl_edit", { contract })}>
          {t("contract_page.tpsl_short")}
        </summary>
        <Form method="post" replace preventScrollReset className={s.marginForm} aria-label={t("contract_page.tpsl_title", { contract })}>
          <input type="hidden" name="intent" value="tpsl" />
          <input type="hidden" name="symbol" value={symbol} />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <input
            name="takeProfit"
            inputMode="decimal"
            autoComplete="off"
            className={s.marginInput}
            placeholder={t("contract_page.take_profit")}
            aria-label={t("contract_page.take_profit_price", { contract })}
            defaultValue={sent("takeProfit") ?? set?.takeProfit ?? ""}
            aria-invalid={errors.length ? true : undefined}
            aria-describedby={errors.length ? errorId : undefined}
          />
          <input
            name="stopLoss"
            inputMode="decimal"
            autoComplete="off"
            className={s.marginInput}
            placeholder={t("contract_page.stop_loss")}
            aria-label={t("contract_page.stop_loss_price", { contract })}
            defaultValue={sent("stopLoss") ?? set?.stopLoss ?? ""}
            aria-invalid={errors.length ? true : undefined}
            aria-describedby={errors.length ? errorId : undefined}
          />
          <select name="triggerBy" className={s.marginInput} aria-label={t("contract_page.trigger_by")} defaultValue={set?.triggerBy ?? "mark"}>
            <option value="mark">{t("contract_page.mark_price")}</option>
            <option value="last">{t("contract_page.last_price")}</option>
          </select>
          <button type="submit" className={s.cancelButton}>
            {t("contract_page.tpsl_apply")}
          </button>
          {errors.length ? (
            <p id={errorId} className={s.fieldError}>
              {errors.map((e) => formErrorText(e, t, { field: t("contract_page.take_profit"), max: 8, mark: nf.marks.decimal, example: "12.5" })).join(" ")}
            </p>
          ) : null}
        </Form>
        {set ? (
          <Form method="post" replace preventScrollReset>
            <input type="hidden" name="intent" value="cancel" />
            <input type="hidden" name="orderId" value={set.stopId} />
            <button type="submit" className={s.cancelButton}>
              {t("contract_page.tpsl_cancel")}
            </button>
          </Form>
        ) : null}
      </details>
    </div>
  );
}

/** The member's open contract orders of the page's type, each with a cancel button (a real form). */
export function ContractOpenOrders({ orders, labelledBy }: { orders: ContractOrder[]; labelledBy: string }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const cancelling = usePosting("cancel", "orderId");
  return (
    <DataTable
      rows={orders}
      rowKey={(o) => o.orderId}
      name={{ labelledBy }}
      look="compact"
      testId="contract-orders"
      empty={<p>{t("exchange.no_open_orders")}</p>}
      columns={[
        { key: "time", header: t("exchange.col_time"), cell: (o) => o.createdAt.slice(5, 19).replace("T", " ") },
        { key: "symbol", header: t("contract_page.col_contract"), cell: (o) => o.symbolName.replace("/", "") },
        {
          key: "direction",
          header: t("contract_page.col_side"),
          cell: (o) => <span className={toneOfDirection(o.direction)}>{t(DIRECTION_KEYS[o.direction])}</span>,
        },
        { key: "type", header: t("exchange.col_type"), cell: (o) => t(`exchange.type_${o.type}`) },
        { key: "price", kind: "number", header: t("exchange.price"), cell: (o) => nf.display(o.price, { abbreviate: false }) },
        {
          key: "qty",
          kind: "number",
          header: t("contract_page.col_qty", { unit: t("contract_page.cont") }),
          cell: (o) => nf.display(o.quantity, { abbreviate: false }),
        },
        { key: "filled", kind: "number", header: t("exchange.col_filled"), cell: (o) => nf.display(o.filled, { abbreviate: false }) },
        { key: "leverage", kind: "number", header: t("contract_page.col_leverage"), cell: (o) => t("contract_page.leverage_x", { leverage: o.leverage }) },
        {
          key: "actions",
          header: <span className="visually-hidden">{t("exchange.col_actions")}</span>,
          cell: (o) => (
            <Form method="post" replace preventScrollReset>
              <input type="hidden" name="intent" value="cancel" />
              <input type="hidden" name="orderId" value={o.orderId} />
              <button
                type="submit"
                className={s.cancelButton}
                disabled={cancelling === o.orderId}
                aria-label={t("contract_page.cancel_order", {
                  direction: t(DIRECTION_KEYS[o.direction]),
                  qty: o.quantity,
                  price: o.price === null ? t("exchange.type_market") : nf.display(o.price, { abbreviate: false }),
                })}
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
