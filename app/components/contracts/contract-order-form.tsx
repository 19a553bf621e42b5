import type { SubmissionResult } from "@conform-to/dom";
import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import type { ContractInfo } from "#protocol/endpoints/contracts";
import { decimalMarkOf, readDecimalInput } from "#protocol/decimal-input";
import { FormErrors } from "~/components/forms";
import { maxOpenable, openingCost, percentOf } from "~/lib/contract-cost";
import { contractOrderCheck } from "~/lib/forms/checks/contract";
import type { ContractActionTab, ContractOrderType } from "~/lib/contract-choices";
import { getFormProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { NumberField } from "../exchange/number-field";
import * as s from "../exchange/exchange.css";

type Reply = { form: string; result: SubmissionResult<string[]>; key?: string };

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
}

/**
 * The contract order form: one `<form method="post">` whose two buttons say the direction (open
 * long or short; close long or short), limit or market, in whole contracts. Before placing, an
 * opening order shows what it costs (margin at the member's leverage plus the taker fee) and the
 * most the balance opens; without JavaScript these are worked out by the server for the price
 * shown. With JavaScript it posts in place (a fetcher); a refusal brings a new key.
 */
export function ContractOrderForm({ info, action, orderType, available, leverage, refPrice, idempotencyKey, lastResult }: Props) {
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

  const typedPrice = orderType === "limit" && fields.price.value ? readDecimalInput(fields.price.value, { scale: info.priceScale, mark }) : null;
  const price = orderType === "limit" ? (typedPrice ? (typedPrice.ok ? typedPrice.value : null) : refPrice) : refPrice;
  const qty = fields.num.value?.trim() || null;
  const cost = openingCost(info, { price, qty, leverage });
  const max = maxOpenable(info, { price, available, leverage });
  const unit = t("contract_page.cont");
  const opening = action === "open";
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
      {orderType === "limit" ? (
        <NumberField field={fields.price} label={t("exchange.price")} unit={info.quote} scale={info.priceScale} mark={mark} defaultValue={refPrice} />
      ) : (
        <p className={s.numberLabel}>{t("contract_page.market_hint")}</p>
      )}
      <NumberField field={fields.num} label={t("contract_page.quantity")} unit={unit} scale={0} mark={mark} />
      <p className={s.numberLabel}>{t("contract_page.contract_is", { size: nf.display(info.contractSize, { abbreviate: false }), unit: info.contractUnit })}</p>
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
            <dt>{t("exchange.fee_rates")}</dt>
            <dd>{t("exchange.fee_rates_value", { maker: nf.fixed(percentOf(info.makerFeeRate), 3), taker: nf.fixed(percentOf(info.takerFeeRate), 3) })}</dd>
          </div>
        </dl>
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
