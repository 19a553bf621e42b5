import type { SubmissionResult } from "@conform-to/dom";
import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import type { ContractInfo } from "#protocol/endpoints/contracts";
import { decimalMarkOf, readDecimalInput } from "#protocol/decimal-input";
import { FormErrors } from "~/components/forms";
import { maxOpenable, openingCost, percentOf } from "~/lib/contract-cost";
import { contractOrderCheck } from "~/lib/forms/checks/contract";
import { CONTRACT_TIME_IN_FORCE, CONTRACT_TRIGGER_PRICES, type ContractActionTab, type ContractOrderType } from "~/lib/contract-choices";
import { getFormProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useHydrated } from "~/lib/use-hydrated";
import { useNumberFormat } from "~/lib/use-number-format";
import { NumberField } from "../exchange/number-field";
import * as s from "../exchange/exchange.css";
import { WHOLE_CONTRACTS_PATTERN } from "#protocol/limits";

/** Where an opening order would leave the liquidation price (the engine's preview): null for a side the member must close first. */
export interface OrderPreview {
  long: { liquidationPrice: string | null } | null;
  short: { liquidationPrice: string | null } | null;
}

type Reply = { form: string; result: SubmissionResult<string[]>; key?: string; preview?: OrderPreview };

interface Props {
  info: ContractInfo;
  action: ContractActionTab;
  orderType: ContractOrderType;
  /** The contract account's available balance of the settlement coin. */
  available: string;
  leverage: number;
  /** The price to start from and to estimate a market order at (the last trade, else the mark). */
  refPrice: string | null;
  idempotencyKey: string;
  lastResult?: SubmissionResult<string[]> | null;
  /** The preview the server worked out on the preview button (without JavaScript). */
  preview?: OrderPreview | null;
}

/**
 * The contract order form: one `<form method="post">` whose two buttons say the direction (open
 * long or short; close long or short), limit, market or stop, in whole contracts. A stop order
 * (decision 048) waits, holding nothing, for the mark or the last price to reach its trigger, and
 * is then placed at its price, or at the market when it has none. Before placing, an
 * opening order shows what it costs (margin at the member's leverage plus the taker fee) and the
 * most the balance opens, and where it would leave the liquidation price, long and short (the
 * engine's preview, loaded as the numbers change). Without JavaScript the server works these out
 * for the numbers submitted with the preview button. With JavaScript it posts in place (a
 * fetcher); a refusal brings a new key.
 */
export function ContractOrderForm({ info, action, orderType, available, leverage, refPrice, idempotencyKey, lastResult, preview }: Props) {
  const { t, i18n } = useTranslation();
  const nf = useNumberFormat();
  const mark = decimalMarkOf(i18n.language);
  const fetcher = useFetcher<Reply>();
  const reply = fetcher.data?.form === "order" ? fetcher.data : null;
  const check = useMemo(() => contractOrderCheck(info.priceScale, mark), [info.priceScale, mark]);
  const [form, fields] = useExchangeForm(check, { id: "contract-order", lastResult: reply?.result ?? lastResult, shouldValidate: "onSubmit" });
  const [key, setKey] = useState(idempotencyKey);
  useEffect(() => setKey(idempotencyKey), [idempotencyKey]);
  useEffect(() => {
    if (reply?.key) setKey(reply.key);
  }, [reply]);
  const busy = fetcher.state !== "idle";

  const typed = (value: string | undefined) => {
    const read = value ? readDecimalInput(value, { scale: info.priceScale, mark }) : null;
    return read === null ? undefined : read.ok ? read.value : null;
  };
  const typedPrice = orderType === "market" ? undefined : typed(fields.price.value);
  // A stop's cost and preview are at its price, else at its trigger (where a market order starts to fill).
  const stopAt = orderType === "stop" ? (typedPrice ?? typed(fields.triggerPrice.value)) : undefined;
  const price =
    orderType === "limit" ? (typedPrice === undefined ? refPrice : typedPrice) : orderType === "stop" ? (stopAt === undefined ? refPrice : stopAt) : refPrice;
  const qty = fields.num.value?.trim() || null;
  const cost = openingCost(info, { price, qty, leverage });
  const max = maxOpenable(info, { price, available, leverage });
  const unit = t("contract_page.cont");
  const opening = action === "open";
  const hydrated = useHydrated();
  const previewer = useFetcher<{ preview: OrderPreview | null }>();
  const { load } = previewer;
  // The live preview: once the numbers stop changing for a moment (a market order's at the mark).
  const previewPrice = orderType === "market" ? null : price;
  const previewPath = `/exchange/full-contract/${info.symbolName.replace("/", "_")}/preview`;
  useEffect(() => {
    if (!opening || !qty || !WHOLE_CONTRACTS_PATTERN.test(qty) || (orderType !== "market" && !previewPrice)) return;
    const query = new URLSearchParams({ num: qty, ...(previewPrice ? { price: previewPrice } : {}) });
    const timer = setTimeout(() => load(`${previewPath}?${query}`), 300);
    return () => clearTimeout(timer);
  }, [opening, qty, orderType, previewPrice, previewPath, load]);
  const shownPreview = reply?.preview ?? preview ?? (qty ? previewer.data?.preview : null) ?? null;
  const liquidationText = (side: OrderPreview["long"] | undefined) => {
    if (side === undefined) return "--";
    if (side === null) return t("contract_page.liq_close_first");
    if (side.liquidationPrice === null) return t("contract_page.liq_none");
    return `≈ ${nf.display(side.liquidationPrice, { abbreviate: false })} ${info.quote}`;
  };
  const buttons = opening
    ? ([
        ["1", "contract_page.open_long", "buy"],
        ["2", "contract_page.open_short", "sell"],
      ] as const)
    : ([
        ["3", "contract_page.close_long", "sell"],
        ["4", "contract_page.close_short", "buy"],
      ] as const);
  return (
    <fetcher.Form
      method="post"
      {...getFormProps(form)}
      className={s.orderForm}
      aria-label={t(opening ? "contract_page.open_title" : "contract_page.close_title")}
    >
      <input type="hidden" name="intent" value="place" />
      <input type="hidden" name="orderType" value={orderType} />
      <input type="hidden" name="idempotencyKey" value={key} />
      <div className={s.available}>
        <span>{t("exchange.available")}</span>
        <span data-testid="contract-available">
          {nf.display(available, { abbreviate: false })} {info.settleCoin}
        </span>
      </div>
      <div className={s.fundLinks}>
        <Link to={`/account/wallet/transfer?coin=${encodeURIComponent(info.settleCoin)}&from=funding&to=contract`}>
          {t("contract_page.transfer_in", { coin: info.settleCoin })}
        </Link>
      </div>
      <FormErrors id={form.errorId} errors={form.errors} />
      {orderType === "stop" ? (
        <>
          <NumberField field={fields.triggerPrice} label={t("contract_page.trigger_price")} unit={info.quote} scale={info.priceScale} mark={mark} />
          <div className={s.numberField}>
            <label htmlFor="contract-trigger-by" className={s.numberLabel}>
              {t("contract_page.trigger_by")}
            </label>
            <div className={s.numberBox}>
              <select
                id="contract-trigger-by"
                name="triggerBy"
                className={s.numberInput}
                defaultValue={fields.triggerBy.initialValue ?? "mark"}
                key={fields.triggerBy.initialValue}
              >
                {CONTRACT_TRIGGER_PRICES.map((value) => (
                  <option key={value} value={value}>
                    {t(value === "mark" ? "contract_page.mark_price" : "contract_page.last_price")}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <NumberField field={fields.price} label={t("contract_page.stop_price")} unit={info.quote} scale={info.priceScale} mark={mark} />
          <p className={s.numberLabel}>{t("contract_page.stop_hint")}</p>
        </>
      ) : orderType === "limit" ? (
        <NumberField field={fields.price} label={t("exchange.price")} unit={info.quote} scale={info.priceScale} mark={mark} defaultValue={refPrice} />
      ) : (
        <p className={s.numberLabel}>{t("contract_page.market_hint")}</p>
      )}
      <NumberField field={fields.num} label={t("contract_page.quantity")} unit={unit} scale={0} mark={mark} />
      <p className={s.numberLabel}>{t("contract_page.contract_is", { size: nf.display(info.contractSize, { abbreviate: false }), unit: info.contractUnit })}</p>
      {orderType === "limit" ? (
        <div className={s.numberField}>
          <label htmlFor="contract-tif" className={s.numberLabel}>
            {t("contract_page.tif_label")}
          </label>
          <div className={s.numberBox}>
            {/* A limit order rests until cancelled, or trades at once and leaves no rest, or all or nothing, or only rests. */}
            <select id="contract-tif" name="tif" className={s.numberInput} defaultValue={fields.tif.initialValue ?? "GTC"} key={fields.tif.initialValue}>
              {CONTRACT_TIME_IN_FORCE.map((value) => (
                <option key={value} value={value}>
                  {t(`contract_page.tif.${value}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
      ) : null}
      {opening ? (
        <dl className={s.fees}>
          <div className={s.total}>
            <dt>{t("contract_page.cost")}</dt>
            <dd data-testid="contract-cost">{cost ? `≈ ${nf.display(cost, { abbreviate: false })} ${info.settleCoin}` : `-- ${info.settleCoin}`}</dd>
          </div>
          <div className={s.total}>
            <dt>{t("contract_page.max_open", { leverage })}</dt>
            <dd data-testid="contract-max">{max === null ? "--" : `${nf.display(max, { abbreviate: false })} ${unit}`}</dd>
          </div>
          <div className={s.total}>
            <dt>{t("contract_page.liq_long")}</dt>
            <dd data-testid="preview-liq-long">{liquidationText(shownPreview?.long)}</dd>
          </div>
          <div className={s.total}>
            <dt>{t("contract_page.liq_short")}</dt>
            <dd data-testid="preview-liq-short">{liquidationText(shownPreview?.short)}</dd>
          </div>
          <div className={s.total}>
            <dt>{t("exchange.fee_rates")}</dt>
            <dd>{t("exchange.fee_rates_value", { maker: nf.fixed(percentOf(info.makerFeeRate), 3), taker: nf.fixed(percentOf(info.takerFeeRate), 3) })}</dd>
          </div>
        </dl>
      ) : null}
      {opening && !hydrated ? (
        // Without JavaScript nothing previews as one types: this asks the server, placing nothing.
        <button type="submit" name="preview" value="1" className={s.cancelButton}>
          {t("contract_page.preview")}
        </button>
      ) : null}
      <div className={s.contractButtons}>
        {buttons.map(([direction, label, tone]) => (
          <button key={direction} type="submit" name="direction" value={direction} className={s.submit[tone]} disabled={busy}>
            {busy ? t("exchange.placing") : t(label)}
          </button>
        ))}
      </div>
    </fetcher.Form>
  );
}
