import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { lazy, Suspense, useMemo, type ChangeEvent } from "react";
import { useTranslation } from "~/lib/i18n";
import { AmountField } from "~/components/amount-field";
import { CodeField } from "~/components/code-field";
import { DemoLockedNotice as DemoLockedOnServer } from "~/components/demo-locked.server";
import { PageErrorBoundary } from "~/components/error-page";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import * as f from "~/components/forms.css";
import { addDecimals } from "#protocol/decimal";
import { decimalMarkOf, readDecimalInput, toInputText } from "#protocol/decimal-input";
import { withdrawalCheck } from "~/lib/forms/checks/withdrawal";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useHydrated } from "~/lib/use-hydrated";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadWithdrawal, withdrawalAction } from "~/services/wallet/withdrawal.server";
import * as s from "~/styles/account-center.css";
import * as w from "~/styles/wallet.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "wallet.withdraw.title") }];

/** Withdrawals (spec §2 wallet `withdrawal`, §5, §8; issue 12): coin and network, address, amount, passwords and codes. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine, request }) => loadWithdrawal(engine, request));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine, request }) => withdrawalAction(engine, request));
}

/**
 * The shared demo login's notice (decision 028), for that login only: the server renders it, and
 * the browser fetches its code to hydrate it (or to show it after a page change) only where it is
 * shown, so a member's withdrawal page does not carry it (decision 037, §7). In the browser the
 * `.server` module is an empty stand-in.
 */
const DemoLockedNotice = DemoLockedOnServer ?? lazy(() => import("~/components/demo-locked").then((m) => ({ default: m.DemoLockedNotice })));

export default function WithdrawalPage() {
  const { t } = useTranslation();
  const { coins, choice, security, book } = useLoaderData<typeof loader>();
  const networks = coins.find((c) => c.coin === choice.coin)?.networks ?? [];
  // The shared demo login cannot withdraw (decision 028): said before anything is typed.
  if (security.demo) {
    return (
      <Suspense fallback={null}>
        <DemoLockedNotice />
      </Suspense>
    );
  }
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="withdraw-title">
      <h1 id="withdraw-title" className={s.title}>
        {t("wallet.withdraw.title")}
      </h1>
      {coins.length === 0 ? (
        <p className={s.muted}>{t("wallet.withdraw.none")}</p>
      ) : (
        <>
          <NetworkChoice coins={coins} networks={networks} choice={choice} saved={book.saved} picked={book.picked?.id ?? null} />
          <p className={s.muted} data-testid="withdraw-whitelist">
            {book.whitelist ? t("wallet.withdraw.whitelist_on") : null}{" "}
            <Link to="/account/wallet/address" className={s.action}>
              {t("wallet.withdraw.manage_addresses")}
            </Link>
          </p>
          {security.tradePasswordSet ? (
            <WithdrawalForm key={book.picked?.id ?? "typed"} />
          ) : (
            <p className={s.muted} data-testid="withdraw-needs-trade-password">
              {t("wallet.withdraw.needs_trade_password")}{" "}
              <Link to="/account/center/trade-pwd" className={s.action}>
                {t("wallet.withdraw.set_trade_password")}
              </Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** Choosing a coin or network is a GET (it works without JavaScript); with it, a change loads at once. */
function NetworkChoice({
  coins,
  networks,
  choice,
  saved,
  picked,
}: {
  coins: Array<{ coin: string; name: string }>;
  networks: string[];
  choice: { coin: string | null; network: string | null };
  saved: Array<{ id: string; label: string; address: string }>;
  picked: string | null;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const onChange = (e: ChangeEvent<HTMLSelectElement>) => {
    const form = e.currentTarget.form!;
    // A new coin starts on its own first network, and a new network with a typed address.
    if (e.currentTarget.name === "coin") (form.elements.namedItem("network") as HTMLSelectElement).value = "";
    const savedChoice = form.elements.namedItem("saved") as HTMLSelectElement | null;
    if (savedChoice && e.currentTarget.name !== "saved") savedChoice.value = "";
    submit(form, { replace: true, preventScrollReset: true });
  };
  return (
    <Form method="get" className={w.filters} key={`${choice.coin}:${choice.network}:${picked}`} aria-label={t("wallet.withdraw.choose")}>
      <div className={f.field}>
        <label htmlFor="withdraw-coin" className={f.label}>
          {t("wallet.deposit.coin")}
        </label>
        <select id="withdraw-coin" name="coin" defaultValue={choice.coin ?? ""} className={f.input} onChange={onChange}>
          {coins.map((c) => (
            <option key={c.coin} value={c.coin}>
              {c.coin} · {c.name}
            </option>
          ))}
        </select>
      </div>
      <div className={f.field}>
        <label htmlFor="withdraw-network" className={f.label}>
          {t("wallet.deposit.network")}
        </label>
        <select id="withdraw-network" name="network" defaultValue={choice.network ?? ""} className={f.input} onChange={onChange}>
          {networks.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      {saved.length ? (
        <div className={f.field}>
          <label htmlFor="withdraw-saved" className={f.label}>
            {t("wallet.withdraw.saved")}
          </label>
          <select id="withdraw-saved" name="saved" defaultValue={picked ?? ""} className={f.input} onChange={onChange}>
            <option value="">{t("wallet.withdraw.saved_none")}</option>
            {saved.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label} · {a.address.slice(0, 6)}…{a.address.slice(-4)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {hydrated ? null : (
        <div className={w.filterActions}>
          <button type="submit" className={f.primary}>
            {t("wallet.withdraw.choose")}
          </button>
        </div>
      )}
    </Form>
  );
}

function WithdrawalForm() {
  const { t, i18n } = useTranslation();
  const nf = useNumberFormat();
  const { choice, rules, network, max, key, book } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const mark = decimalMarkOf(i18n.language);
  const check = useMemo(() => withdrawalCheck(rules!), [rules]);
  const [form, fields] = useExchangeForm(check, {
    id: `withdraw-${choice.coin}-${choice.network}`,
    lastResult: actionData?.result,
    defaultValue: {
      coin: choice.coin ?? "",
      network: choice.network ?? "",
      ...(book.picked ? { address: book.picked.address, ...(book.picked.memo ? { memo: book.picked.memo } : {}) } : {}),
    },
  });
  if (!rules || !network) return null;
  const picked = book.picked;
  // Under whitelist mode a newly saved address waits 24 h (decision 029): said before the member types the rest.
  const savedHint = (a: NonNullable<typeof picked>) =>
    book.whitelist && Date.parse(a.usableFrom) > book.now
      ? t("wallet.withdraw.saved_waiting", { label: a.label, time: `${a.usableFrom.slice(0, 16).replace("T", " ")} UTC` })
      : t("wallet.withdraw.saved_hint", { label: a.label });
  const typed = readDecimalInput(fields.amount.value ?? "", { scale: rules.scale, mark });
  const total = typed.ok ? addDecimals(typed.value, rules.fee) : null;
  const show = (value: string) => `${nf.display(value, { abbreviate: false })} ${rules.coin}`;
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="idempotencyKey" value={actionData?.key ?? key} />
      <input type="hidden" name="coin" value={choice.coin ?? ""} />
      <input type="hidden" name="network" value={choice.network ?? ""} />
      <Field
        label={t("wallet.withdraw.address", { coin: rules.coin, network: choice.network })}
        inputProps={{ ...getInputProps(fields.address, { type: "text" }), autoComplete: "off", spellCheck: false }}
        errors={fields.address.errors}
        hint={picked ? savedHint(picked) : undefined}
      />
      {rules.needsTag ? (
        <Field
          label={t("wallet.withdraw.tag")}
          hint={t("wallet.withdraw.tag_hint")}
          inputProps={{ ...getInputProps(fields.memo, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
          errors={fields.memo.errors}
        />
      ) : null}
      <AmountField
        label={t("wallet.withdraw.amount")}
        inputProps={getInputProps(fields.amount, { type: "text" })}
        errors={fields.amount.errors}
        hint={t("wallet.withdraw.available", { available: show(rules.available), max: show(max), min: show(rules.minWithdraw) })}
        onMax={() => form.update({ name: fields.amount.name, value: toInputText(max, mark) })}
        scale={rules.scale}
        mark={mark}
      />
      <dl className={w.withdrawFacts} aria-live="polite">
        <dt className={s.muted}>{t("wallet.withdraw.fee")}</dt>
        <dd>{show(rules.fee)}</dd>
        <dt className={s.muted}>{t("wallet.withdraw.received")}</dt>
        <dd data-testid="withdraw-received">{typed.ok ? show(typed.value) : "--"}</dd>
        <dt className={s.muted}>{t("wallet.withdraw.total")}</dt>
        <dd data-testid="withdraw-total">{total ? show(total) : "--"}</dd>
        <dt className={s.muted}>{t("wallet.withdraw.daily_limit")}</dt>
        <dd>{t("wallet.withdraw.daily_limit_value", { limit: show(network.dailyWithdrawLimit), kyc: show(network.dailyWithdrawLimitKyc) })}</dd>
      </dl>
      <Field
        label={t("wallet.withdraw.trade_password")}
        inputProps={{ ...getInputProps(fields.tradePassword, { type: "password" }), autoComplete: "off", inputMode: "numeric", maxLength: 6 }}
        errors={fields.tradePassword.errors}
      />
      <CodeField
        hint={t("account.security.code_hint")}
        inputProps={getInputProps(fields.code, { type: "text" })}
        errors={fields.code.errors}
        sentAt={actionData && "sentAt" in actionData ? actionData.sentAt : undefined}
        sentTo={actionData && "sentTo" in actionData ? actionData.sentTo : undefined}
        resendAfter={(actionData && "resendAfter" in actionData ? actionData.resendAfter : undefined) ?? undefined}
      />
      {rules.googleBound ? (
        <Field
          label={t("wallet.withdraw.google_code")}
          inputProps={{ ...getInputProps(fields.googleCode, { type: "text" }), autoComplete: "one-time-code", inputMode: "numeric", maxLength: 6 }}
          errors={fields.googleCode.errors}
        />
      ) : null}
      <p className={w.submitNote}>{t("wallet.withdraw.review_note")}</p>
      <SubmitButton name="intent" value="withdraw">
        {t("wallet.withdraw.submit")}
      </SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = PageErrorBoundary;
