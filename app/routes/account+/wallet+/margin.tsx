import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import { decimalMarkOf, toInputText } from "#protocol/decimal-input";
import { AmountField } from "~/components/amount-field";
import { PageErrorBoundary } from "~/components/error-page";
import { FormErrors, SelectField, SubmitButton } from "~/components/forms";
import { marginMoveCheck } from "~/lib/forms/checks/margin";
import { getFormProps, getInputProps, getSelectProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadMarginPage, marginPageAction } from "~/services/margin/margin.server";
import * as s from "~/styles/account-center.css";
import * as m from "~/styles/margin.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "margin_page.title") }];

/** The member's margin accounts (issue 31, decision 050): cross or one isolated account, its coins and debts, and its forms. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadMarginPage(engine));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => marginPageAction(engine));
}

const OPERATIONS = ["in", "out", "borrow", "repay"] as const;

export default function MarginPage() {
  const { t, i18n } = useTranslation();
  const { account, tabs, keys } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const nf = useNumberFormat();
  const mark = decimalMarkOf(i18n.language);
  const name = (symbol: string | null) => (symbol === null ? t("margin_page.cross") : symbol);
  const hrefOf = (symbol: string | null) => `/account/wallet/margin${symbol === null ? "" : `?account=${symbol.replace("/", "_")}`}`;
  const level = (value: string | null) => (value === null ? "—" : nf.fixed(value, 2));

  const [coin, setCoin] = useState(account.coins[0]?.coin ?? "USDT");
  const [operation, setOperation] = useState<(typeof OPERATIONS)[number]>("in");
  const chosen = account.coins.find((c) => c.coin === coin) ?? account.coins[0];
  const scale = chosen?.scale ?? 8;
  const moveCheck = useMemo(() => marginMoveCheck(scale, mark), [scale, mark]);
  const moveResult = actionData?.form === "move" ? actionData.result : undefined;
  const [move, moveFields] = useExchangeForm(moveCheck, { id: "margin-move", lastResult: moveResult, defaultValue: { operation: "in", coin } });
  // The leverage is a choice among the allowed ones: nothing to check before it is sent (the server still does).
  const leverageErrors = actionData?.form === "leverage" ? actionData.result.error?.leverage : undefined;
  // What the chosen operation can take at most: the funding balance in, the account's available out (the level may refuse less), the borrowable, the owed.
  const most = !chosen
    ? null
    : operation === "in"
      ? chosen.funding
      : operation === "out"
        ? chosen.available
        : operation === "borrow"
          ? chosen.canBorrow
          : chosen.owed;
  const fillMax = () => most !== null && move.update({ name: moveFields.amount.name, value: toInputText(most, mark) });

  return (
    <section className={s.card} aria-labelledby="margin-title">
      <h1 id="margin-title" className={s.title}>
        {t("margin_page.title")}
      </h1>
      <nav aria-label={t("margin_page.accounts")}>
        <ul className={m.tabs}>
          {tabs.map((tab) => (
            <li key={tab.symbol ?? "all"}>
              <Link to={hrefOf(tab.symbol)} className={m.tab} aria-current={tab.symbol === account.symbolName ? "page" : undefined}>
                <span>{name(tab.symbol)}</span>
                {tab.level !== null ? <span className={m.tabLevel}>{level(tab.level)}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {account.warned ? (
        <p className={m.warning} role="status">
          {t("margin_page.warned", { level: level(account.marginLevel), line: level(account.liquidationLevel) })}
        </p>
      ) : null}

      <dl className={s.facts}>
        <dt className={s.factLabel}>{t("margin_page.account")}</dt>
        <dd className={s.factValue}>{name(account.symbolName)}</dd>
        <dt className={s.factLabel}>{t("margin_page.level")}</dt>
        <dd className={s.factValue} data-testid="margin-level">
          {level(account.marginLevel)}
        </dd>
        <dt className={s.factLabel}>{t("margin_page.assets")}</dt>
        <dd className={s.factValue}>{nf.fixed(account.assetsValue, 2)} USDT</dd>
        <dt className={s.factLabel}>{t("margin_page.debts")}</dt>
        <dd className={s.factValue} data-testid="margin-debts">
          {nf.fixed(account.debtsValue, 2)} USDT
        </dd>
        <dt className={s.factLabel}>{t("margin_page.leverage")}</dt>
        <dd className={s.factValue}>{account.leverage}×</dd>
      </dl>
      <p className={m.lines}>
        {t("margin_page.lines", { warning: level(account.warningLevel), liquidation: level(account.liquidationLevel), out: level(account.transferOutLevel) })}
      </p>

      <h2 id="margin-coins" className={s.subtitle}>
        {t("margin_page.coins")}
      </h2>
      {/* A card per coin (a few, read one by one): the page stays within its JavaScript budget without the table's code. */}
      <ul className={m.coins} aria-labelledby="margin-coins" data-testid="margin-coins">
        {account.coins.map((c) => (
          <li key={c.coin} className={m.coin}>
            <h3 className={m.coinName}>{c.coin}</h3>
            <dl className={m.coinFacts}>
              {(
                [
                  ["balance", c.balance],
                  ["borrowed", c.borrowed],
                  ["interest", c.interest],
                  ["owed", c.owed],
                  ["can_borrow", c.canBorrow],
                ] as const
              ).map(([key, value]) => (
                <div key={key} className={m.coinFact}>
                  <dt className={s.factLabel}>{t(`margin_page.col.${key}`)}</dt>
                  <dd className={m.coinValue}>{value === null ? "—" : nf.fixed(value, c.scale)}</dd>
                </div>
              ))}
              <div className={m.coinFact}>
                <dt className={s.factLabel}>{t("margin_page.col.yearly_rate")}</dt>
                <dd className={m.coinValue}>{c.yearlyPercent === null ? "—" : `${nf.fixed(c.yearlyPercent, 2)} %`}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>

      <div className={m.forms}>
        <Form method="post" {...getFormProps(move)} aria-labelledby="margin-move-title">
          <h2 id="margin-move-title" className={s.subtitle}>
            {t("margin_page.move_title")}
          </h2>
          <FormErrors id={move.errorId} errors={move.errors} />
          <input type="hidden" name="intent" value="move" />
          <input type="hidden" name="idempotencyKey" value={actionData?.form === "move" ? actionData.key : keys.move} />
          <SelectField
            label={t("margin_page.operation")}
            selectProps={{ ...getSelectProps(moveFields.operation), onChange: (e) => setOperation(e.currentTarget.value as (typeof OPERATIONS)[number]) }}
            errors={moveFields.operation.errors}
          >
            {OPERATIONS.map((op) => (
              <option key={op} value={op}>
                {t(`margin_page.op.${op}`)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t("margin_page.coin")}
            selectProps={{ ...getSelectProps(moveFields.coin), onChange: (e) => setCoin(e.currentTarget.value) }}
            errors={moveFields.coin.errors}
          >
            {account.coins.map((c) => (
              <option key={c.coin} value={c.coin}>
                {c.coin}
              </option>
            ))}
          </SelectField>
          <AmountField
            label={t("margin_page.amount")}
            inputProps={getInputProps(moveFields.amount, { type: "text" })}
            errors={moveFields.amount.errors}
            hint={most === null ? undefined : t(`margin_page.most.${operation}`, { amount: nf.fixed(most, scale), coin })}
            onMax={fillMax}
            scale={scale}
            mark={mark}
          />
          <p className={m.hint}>{t("margin_page.interest_note")}</p>
          <SubmitButton>{t("margin_page.submit")}</SubmitButton>
        </Form>

        {account.symbolName !== null ? (
          <Form method="post" id="margin-leverage" aria-labelledby="margin-leverage-title">
            <h2 id="margin-leverage-title" className={s.subtitle}>
              {t("margin_page.leverage_title")}
            </h2>
            {actionData?.form === "leverage" ? <FormErrors id="margin-leverage-errors" errors={actionData.result.error?.[""] ?? undefined} /> : null}
            <input type="hidden" name="intent" value="leverage" />
            <input type="hidden" name="idempotencyKey" value={actionData?.form === "leverage" ? actionData.key : keys.leverage} />
            <SelectField
              label={t("margin_page.leverage")}
              selectProps={{ id: "margin-leverage-value", name: "leverage", defaultValue: String(account.leverage) }}
              errors={leverageErrors ?? undefined}
            >
              {Array.from({ length: account.maxLeverage - 1 }, (_, i) => i + 2).map((x) => (
                <option key={x} value={String(x)}>
                  {x}×
                </option>
              ))}
            </SelectField>
            <SubmitButton>{t("margin_page.leverage_submit")}</SubmitButton>
          </Form>
        ) : null}
      </div>
    </section>
  );
}

export const ErrorBoundary = PageErrorBoundary;
