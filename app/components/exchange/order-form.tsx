import type { SubmissionResult } from "@conform-to/dom";
import { Form, Link, useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "~/lib/i18n";
import { fromMinor, multiplyDecimal, toMinor } from "#protocol/decimal";
import { FormErrors } from "~/components/forms";
import { formErrorText } from "~/lib/forms/form-error";
import { spotOrderCheck } from "~/lib/forms/checks/order";
import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import { precisionOf, type OrderFormType } from "~/lib/forms/spot-order";
import type { Deal } from "~/lib/trading-tabs";
import { useExchangeForm, type ExchangeField } from "~/lib/forms/use-exchange-form";
import { estimateOrderFee } from "~/lib/fees";
import { decimalMarkOf, readDecimalInput, toInputText } from "#protocol/decimal-input";
import { useHydrated } from "~/lib/use-hydrated";
import { useNumberFormat } from "~/lib/use-number-format";
import { NumberField } from "./number-field";
import * as s from "./exchange.css";

export interface OrderFormRules {
  base: string;
  quote: string;
  coin_coin_scale: number;
  base_coin_scale: number;
  /** Fee rates in percent of what the member receives. */
  makerFee: string;
  takerFee: string;
}

interface Props {
  side: "buy" | "sell";
  /** The account the order trades from: cash (spot) or margin, cross (`all`) or this pair's isolated one (`fixed`). */
  deal?: Deal;
  /** The market's symbol (BTC/USDT): the isolated account's name on the margin page. */
  marginSymbol?: string;
  orderType: OrderFormType;
  rules: OrderFormRules;
  /** What the member can spend: quote for a buy, base for a sell. */
  available: string;
  /** What the funding account holds of the coin this side spends (deposits land there). */
  funding: string;
  idempotencyKey: string;
  /** The key of the one-step move from funding to spot. */
  fundKey: string;
  /** The result of a refused post (document request without JavaScript). */
  lastResult?: SubmissionResult<string[]> | null;
  /** A suggested price (the last trade) to start a limit order from. */
  suggestedPrice: string | null;
}

type ActionReply = { side: "buy" | "sell"; result: SubmissionResult<string[]>; key?: string };

/**
 * One side's order form. A real `<form method="post">`: without JavaScript it posts and the page
 * re-renders with the outcome; with JavaScript it posts in place (a fetcher) and the page's data
 * reloads. A retried post of the same form places one order; after any answer the form carries
 * a new idempotency key (a refusal brings one: the engine keeps its answer under the old key).
 */
export function OrderForm({
  side,
  deal = "cash",
  marginSymbol = "",
  orderType,
  rules,
  available,
  funding,
  idempotencyKey,
  fundKey,
  lastResult,
  suggestedPrice,
}: Props) {
  const { t, i18n } = useTranslation();
  const fetcher = useFetcher<ActionReply>();
  const precision = precisionOf(rules);
  const mark = decimalMarkOf(i18n.language);
  const nf = useNumberFormat();
  // Keyed by the scales, not by the precision object (a new one each render).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const check = useMemo(() => spotOrderCheck(precision, mark), [precision.priceScale, precision.amountScale, precision.quoteScale, mark]);
  const reply = fetcher.data?.side === side ? fetcher.data : null;
  const [form, fields] = useExchangeForm(check, {
    id: `order-${side}`,
    lastResult: reply?.result ?? lastResult,
    shouldValidate: "onSubmit",
  });
  const busy = fetcher.state !== "idle";
  const buyAtMarket = side === "buy" && orderType === "market";
  const spendUnit = side === "buy" ? rules.quote : rules.base;
  const price = orderType === "limit" ? fields.price.value : orderType === "stop" ? fields.triggerMoney.value : undefined;
  const num = fields.num.value;
  /** A field's value as the decimal it denotes, if it is one yet. */
  const decimal = (v: string | undefined, scale: number) => {
    const read = v ? readDecimalInput(v, { scale, mark }) : null;
    return read?.ok ? read.value : null;
  };
  const priceValue = decimal(price, precision.priceScale);
  const numValue = decimal(num, precision.amountScale);
  const totalValue = priceValue && numValue ? multiplyDecimal(priceValue, numValue, precision.quoteScale) : null;
  // Shown before the trade: the rates, and the most this order can pay (taker rate).
  const fee = estimateOrderFee({
    side,
    takerFee: rules.takerFee,
    base: rules.base,
    quote: rules.quote,
    price: orderType === "market" ? suggestedPrice : priceValue,
    num: buyAtMarket ? null : numValue,
    money: buyAtMarket ? decimal(fields.money.value, precision.quoteScale) : null,
  });
  const hydrated = useHydrated();
  // The key the next post carries: the page's (new after every reload) or, after a refusal that
  // did not reload the page, the new one the refusal brought. Whichever arrived last wins.
  const [key, setKey] = useState(idempotencyKey);
  useEffect(() => setKey(idempotencyKey), [idempotencyKey]);
  useEffect(() => {
    if (reply?.key) setKey(reply.key);
  }, [reply]);

  /** A share of what is available, as an amount (or money for a market buy), rounded down. */
  const share = (pct: bigint) => {
    const availMinor = toMinor(available, 8, "down");
    const set = (field: ExchangeField, minor: bigint, scale: number) =>
      form.update({ name: field.name as string, value: toInputText(fromMinor(minor, scale), mark) });
    if (buyAtMarket) return set(fields.money, (availMinor * pct) / 100n / 10n ** BigInt(8 - precision.quoteScale), precision.quoteScale);
    if (side === "sell") return set(fields.num, (availMinor * pct) / 100n / 10n ** BigInt(8 - precision.amountScale), precision.amountScale);
    if (!priceValue) return;
    // Buy: quote × share ÷ price, in amount units, rounded down.
    const priceMinor = toMinor(priceValue, precision.priceScale);
    set(fields.num, (availMinor * pct * 10n ** BigInt(precision.priceScale + precision.amountScale)) / (100n * priceMinor * 10n ** 8n), precision.amountScale);
  };

  const numberField = (field: ExchangeField, label: string, unit: string, scale: number, defaultValue?: string | null) => (
    <NumberField field={field} label={label} unit={unit} scale={scale} mark={mark} defaultValue={defaultValue} />
  );

  const title = t(side === "buy" ? "exchange.buy_title" : "exchange.sell_title", { coin: rules.base });
  const fundFormId = `fund-${side}`;
  return (
    <>
      <fetcher.Form method="post" {...getFormProps(form)} className={s.orderForm} aria-label={title}>
        <input type="hidden" name="intent" value="place" />
        <input type="hidden" name="side" value={side} />
        <input type="hidden" name="orderType" value={orderType} />
        {deal === "cash" ? null : <input type="hidden" name="deal" value={deal} />}
        <input type="hidden" name="idempotencyKey" value={key} />
        <div className={s.available}>
          <span>{t("exchange.available")}</span>
          <span data-testid={`available-${side}`}>
            {nf.display(available)} {spendUnit}
          </span>
        </div>
        {/* "Available 0" leads somewhere: deposit, transfer, or move what the funding account holds in one step; on margin, borrow or move funds in. */}
        {deal !== "cash" ? (
          <div className={s.fundLinks}>
            <Link
              to={`/account/wallet/margin${deal === "fixed" ? `?account=${encodeURIComponent(marginSymbol.replace("/", "_"))}` : ""}`}
              aria-label={t("exchange.margin_borrow_coin", { coin: spendUnit })}
            >
              {t("exchange.margin_borrow")}
            </Link>
          </div>
        ) : (
          <div className={s.fundLinks}>
            <Link to={`/account/wallet/deposit?coin=${encodeURIComponent(spendUnit)}`} aria-label={t("exchange.deposit_coin", { coin: spendUnit })}>
              {t("exchange.deposit")}
            </Link>
            <Link
              to={`/account/wallet/transfer?coin=${encodeURIComponent(spendUnit)}&from=funding&to=spot`}
              aria-label={t("exchange.transfer_coin", { coin: spendUnit })}
            >
              {t("exchange.transfer")}
            </Link>
            {/[1-9]/.test(funding) ? (
              <button type="submit" form={fundFormId} className={s.fundButton} data-testid={`fund-${side}`}>
                {t("exchange.move_from_funding", { amount: nf.display(funding, { abbreviate: false }), coin: spendUnit })}
              </button>
            ) : null}
          </div>
        )}
        <FormErrors id={form.errorId} errors={form.errors} />
        {orderType === "stop" && (
          <>
            <div className={s.stopRow}>
              <label className={s.check}>
                <input {...getInputProps(fields.stopProfit, { type: "checkbox", value: "on" })} />
                {t("exchange.stop_profit")}
              </label>
              {numberField(fields.stopProfitPrice, t("exchange.stop_profit_price"), rules.quote, precision.priceScale)}
            </div>
            <div className={s.stopRow}>
              <label className={s.check}>
                <input {...getInputProps(fields.stopLoss, { type: "checkbox", value: "on" })} />
                {t("exchange.stop_loss")}
              </label>
              {numberField(fields.stopLossPrice, t("exchange.stop_loss_price"), rules.quote, precision.priceScale)}
            </div>
            {fields.stopProfit.errors?.length ? <p className={s.fieldError}>{fields.stopProfit.errors.map((e) => formErrorText(e, t)).join(" ")}</p> : null}
            {numberField(fields.triggerMoney, t("exchange.order_price"), rules.quote, precision.priceScale, suggestedPrice)}
          </>
        )}
        {orderType === "limit" && numberField(fields.price, t("exchange.price"), rules.quote, precision.priceScale, suggestedPrice)}
        {orderType === "market" && <p className={s.numberLabel}>{t(side === "buy" ? "exchange.market_buy_hint" : "exchange.market_sell_hint")}</p>}
        {buyAtMarket
          ? numberField(fields.money, t("exchange.total_spend"), rules.quote, precision.quoteScale)
          : numberField(fields.num, t("exchange.amount"), rules.base, precision.amountScale)}
        {hydrated && (
          <div className={s.percents}>
            {[25n, 50n, 75n, 100n].map((pct) => (
              <button
                key={String(pct)}
                type="button"
                className={s.percent}
                onClick={() => share(pct)}
                aria-label={t("exchange.use_share", { share: String(pct) })}
              >
                {String(pct)}%
              </button>
            ))}
          </div>
        )}
        {orderType !== "market" && (
          <div className={s.total}>
            <span>{t("exchange.total")}</span>
            <span>
              {nf.display(totalValue)} {rules.quote}
            </span>
          </div>
        )}
        <dl className={s.fees}>
          <div className={s.total}>
            <dt>{t("exchange.fee_rates")}</dt>
            <dd data-testid={`fee-rates-${side}`}>{t("exchange.fee_rates_value", { maker: nf.mark(rules.makerFee), taker: nf.mark(rules.takerFee) })}</dd>
          </div>
          <div className={s.total}>
            <dt>{t("exchange.estimated_fee")}</dt>
            <dd data-testid={`fee-estimate-${side}`}>{fee ? `≈ ${nf.display(fee.value)} ${fee.unit}` : `-- ${side === "buy" ? rules.base : rules.quote}`}</dd>
          </div>
        </dl>
        <button type="submit" className={s.submit[side]} disabled={busy}>
          {busy ? t("exchange.placing") : title}
        </button>
      </fetcher.Form>
      {/* The move's own form (forms do not nest): its button sits by "Available" above. */}
      <Form method="post" id={fundFormId} hidden>
        <input type="hidden" name="intent" value="fund" />
        <input type="hidden" name="coin" value={spendUnit} />
        {/* Exactly what the button says is moved: a retry under the same key gets the first answer. */}
        <input type="hidden" name="amount" value={funding} />
        <input type="hidden" name="idempotencyKey" value={fundKey} />
      </Form>
    </>
  );
}
