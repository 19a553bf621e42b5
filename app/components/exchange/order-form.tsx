import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { fromMinor, multiplyDecimal, toMinor } from "#protocol/money";
import { FormErrors } from "~/components/forms";
import { precisionOf, spotOrderSchema, type OrderFormType, type SpotOrderFormInput } from "~/lib/forms/spot-order";
import { formatDisplayNumber } from "~/lib/number-format";
import { sanitizeNumberInput } from "~/lib/number-input";
import { useHydrated } from "~/lib/use-hydrated";
import * as s from "./exchange.css";

export interface OrderFormRules {
  base: string;
  quote: string;
  coin_coin_scale: number;
  base_coin_scale: number;
}

interface Props {
  side: "buy" | "sell";
  orderType: OrderFormType;
  rules: OrderFormRules;
  /** What the member can spend: quote for a buy, base for a sell. */
  available: string;
  idempotencyKey: string;
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
export function OrderForm({ side, orderType, rules, available, idempotencyKey, lastResult, suggestedPrice }: Props) {
  const { t } = useTranslation();
  const fetcher = useFetcher<ActionReply>();
  const precision = precisionOf(rules);
  const schema = useMemo(() => spotOrderSchema(precision), [precision.priceScale, precision.amountScale, precision.quoteScale]);
  const reply = fetcher.data?.side === side ? fetcher.data : null;
  const [form, fields] = useForm<SpotOrderFormInput>({
    id: `order-${side}`,
    lastResult: reply?.result ?? lastResult ?? undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const busy = fetcher.state !== "idle";
  const buyAtMarket = side === "buy" && orderType === "market";
  const spendUnit = side === "buy" ? rules.quote : rules.base;
  const price = orderType === "limit" ? fields.price.value : orderType === "stop" ? fields.triggerMoney.value : undefined;
  const num = fields.num.value;
  const decimal = (v: string | undefined): v is string => !!v && /^\d+(\.\d+)?$/.test(v);
  const totalValue = decimal(price) && decimal(num) ? multiplyDecimal(price, num, precision.quoteScale) : null;
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
    if (buyAtMarket) return form.update({ name: fields.money.name as string, value: fromMinor((availMinor * pct) / 100n / 10n ** BigInt(8 - precision.quoteScale), precision.quoteScale) });
    if (side === "sell") return form.update({ name: fields.num.name as string, value: fromMinor((availMinor * pct) / 100n / 10n ** BigInt(8 - precision.amountScale), precision.amountScale) });
    if (!decimal(price) || !/[1-9]/.test(price)) return;
    // Buy: quote × share ÷ price, in amount units, rounded down.
    const priceMinor = toMinor(price, precision.priceScale);
    const amount = (availMinor * pct * 10n ** BigInt(precision.priceScale + precision.amountScale)) / (100n * priceMinor * 10n ** 8n);
    form.update({ name: fields.num.name as string, value: fromMinor(amount, precision.amountScale) });
  };

  const numberField = (field: FieldMetadata<string | undefined>, label: string, unit: string, scale: number, defaultValue?: string | null) => {
    const props = getInputProps(field, { type: "text" });
    const errorId = `${field.id}-error`;
    return (
      <div className={s.numberField}>
        <label htmlFor={field.id} className={s.numberLabel}>
          {label}
        </label>
        <div className={s.numberBox}>
          <input
            {...props}
            defaultValue={props.defaultValue ?? defaultValue ?? undefined}
            className={s.numberInput}
            inputMode="decimal"
            autoComplete="off"
            aria-describedby={field.errors?.length ? errorId : undefined}
            onInput={(e) => {
              const clean = sanitizeNumberInput(e.currentTarget.value, scale);
              if (clean !== e.currentTarget.value) e.currentTarget.value = clean;
            }}
          />
          <span className={s.unit} aria-hidden="true">
            {unit}
          </span>
        </div>
        {field.errors?.length ? (
          <p id={errorId} className={s.fieldError}>
            {field.errors.map((e) => (/^[a-z_]+\.[a-z_.]+$/.test(e) ? t(e) : e)).join(" ")}
          </p>
        ) : null}
      </div>
    );
  };

  const title = t(side === "buy" ? "exchange.buy_title" : "exchange.sell_title", { coin: rules.base });
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className={s.orderForm} aria-label={title}>
      <input type="hidden" name="intent" value="place" />
      <input type="hidden" name="side" value={side} />
      <input type="hidden" name="orderType" value={orderType} />
      <input type="hidden" name="idempotencyKey" value={key} />
      <div className={s.available}>
        <span>{t("exchange.available")}</span>
        <span data-testid={`available-${side}`}>
          {formatDisplayNumber(available)} {spendUnit}
        </span>
      </div>
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
          {fields.stopProfit.errors?.length ? <p className={s.fieldError}>{fields.stopProfit.errors.map((e) => t(e)).join(" ")}</p> : null}
          {numberField(fields.triggerMoney, t("exchange.order_price"), rules.quote, precision.priceScale, suggestedPrice)}
        </>
      )}
      {orderType === "limit" && numberField(fields.price, t("exchange.price"), rules.quote, precision.priceScale, suggestedPrice)}
      {orderType === "market" && (
        <p className={s.numberLabel}>{t(side === "buy" ? "exchange.market_buy_hint" : "exchange.market_sell_hint")}</p>
      )}
      {buyAtMarket
        ? numberField(fields.money, t("exchange.total_spend"), rules.quote, precision.quoteScale)
        : numberField(fields.num, t("exchange.amount"), rules.base, precision.amountScale)}
      {hydrated && (
        <div className={s.percents}>
          {[25n, 50n, 75n, 100n].map((pct) => (
            <button key={String(pct)} type="button" className={s.percent} onClick={() => share(pct)} aria-label={t("exchange.use_share", { share: String(pct) })}>
              {String(pct)}%
            </button>
          ))}
        </div>
      )}
      {orderType !== "market" && (
        <div className={s.total}>
          <span>{t("exchange.total")}</span>
          <span>
            {formatDisplayNumber(totalValue)} {rules.quote}
          </span>
        </div>
      )}
      <button type="submit" className={s.submit[side]} disabled={busy}>
        {busy ? t("exchange.placing") : title}
      </button>
    </fetcher.Form>
  );
}
