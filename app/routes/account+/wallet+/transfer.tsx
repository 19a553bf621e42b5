import { getFormProps, getInputProps, getSelectProps } from "~/lib/forms/form-props";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import { useTranslation } from "~/lib/i18n";
import { OPEN_ACCOUNTS, type OpenAccountName } from "#protocol/accounts";
import { PageErrorBoundary } from "~/components/error-page";
import { FormErrors, SelectField, SubmitButton } from "~/components/forms";
import { AmountField } from "~/components/amount-field";
import { decimalMarkOf, toInputText } from "#protocol/decimal-input";
import { transferCheck } from "~/lib/forms/checks/transfer";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadTransfer, transferAction } from "~/services/wallet/wallet.server";
import * as s from "~/styles/account-center.css";
import * as w from "~/styles/wallet.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "wallet.transfer.title") }];

/** Moving funds between the member's own accounts (spec §2 wallet `transfer`, §7 `wallet/trans`). */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine, request }) => loadTransfer(engine, request));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine, request }) => transferAction(engine, request));
}

export default function TransferPage() {
  const { t, i18n } = useTranslation();
  const { balances, choice, key } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const nf = useNumberFormat();
  const mark = decimalMarkOf(i18n.language);
  const [coin, setCoin] = useState(choice.coin);
  const [from, setFrom] = useState<OpenAccountName>(choice.from);
  const coinInfo = (account: OpenAccountName) => balances[account].find((c) => c.coin === coin);
  const scale = coinInfo("funding")?.scale ?? 8;
  const check = useMemo(() => transferCheck(scale, mark), [scale, mark]);
  const [form, fields] = useExchangeForm(check, {
    id: "transfer",
    lastResult: actionData?.result,
    defaultValue: { from: choice.from, to: choice.to, coin: choice.coin },
  });
  const available = coinInfo(from)?.available ?? "0";
  const fillMax = () => form.update({ name: fields.amount.name, value: toInputText(available, mark) });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="transfer-title">
      <h1 id="transfer-title" className={s.title}>
        {t("wallet.transfer.title")}
      </h1>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="idempotencyKey" value={actionData?.key ?? key} />
        <SelectField
          label={t("wallet.transfer.from")}
          selectProps={{ ...getSelectProps(fields.from), onChange: (e) => setFrom(e.currentTarget.value as OpenAccountName) }}
          errors={fields.from.errors}
        >
          {OPEN_ACCOUNTS.map((account) => (
            <option key={account} value={account}>
              {t(`wallet.account.${account}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("wallet.transfer.to")} selectProps={getSelectProps(fields.to)} errors={fields.to.errors}>
          {OPEN_ACCOUNTS.map((account) => (
            <option key={account} value={account}>
              {t(`wallet.account.${account}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t("wallet.transfer.coin")}
          selectProps={{ ...getSelectProps(fields.coin), onChange: (e) => setCoin(e.currentTarget.value) }}
          errors={fields.coin.errors}
        >
          {balances.funding.map((c) => (
            <option key={c.coin} value={c.coin}>
              {c.coin} · {c.name}
            </option>
          ))}
        </SelectField>
        <AmountField
          label={t("wallet.transfer.amount")}
          inputProps={getInputProps(fields.amount, { type: "text" })}
          errors={fields.amount.errors}
          hint={t("wallet.transfer.available", { amount: nf.fixed(available, scale), coin })}
          onMax={fillMax}
          scale={scale}
          mark={mark}
        />
        <SubmitButton>{t("wallet.transfer.submit")}</SubmitButton>
      </Form>
      <dl className={w.balances} aria-label={t("wallet.transfer.balances", { coin })}>
        {OPEN_ACCOUNTS.map((account) => (
          <div key={account} className={w.balance}>
            <dt className={s.muted}>{t(`wallet.account.${account}`)}</dt>
            <dd style={{ margin: 0 }}>
              {nf.fixed(balances[account].find((c) => c.coin === coin)?.available ?? "0", scale)} {coin}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export const ErrorBoundary = PageErrorBoundary;
