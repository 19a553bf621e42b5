import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { decimalMarkOf, toInputText } from "#protocol/decimal-input";
import { AmountField } from "~/components/amount-field";
import { PageErrorBoundary } from "~/components/error-page";
import { FormErrors, SubmitButton } from "~/components/forms";
import { percentOf } from "~/components/loans/percent";
import { stakeRedeemCheck } from "~/lib/forms/checks/stake";
import { refusalError } from "~/lib/forms/form-error";
import { getFormProps } from "~/lib/forms/form-props";
import { stakeScaleOf } from "~/lib/forms/stake";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { formatDateTime } from "~/lib/dates";
import { pageTitle, useShell } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadRedeemPage, redeemAction } from "~/services/staking/staking.server";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/staking.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "staking.redeem_title") }];

/**
 * Redeeming one of the member's stakes (decision 052): what it pays now, shown before the member
 * confirms (a flexible stake: of the amount asked, a GET form), and for a fixed one before maturity
 * the interest it forfeits; the confirmation posts with its key.
 */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadRedeemPage(engine, args.params.stakeId ?? ""));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => redeemAction(engine, args.params.stakeId ?? ""));
}

export default function RedeemPage() {
  const { t, i18n } = useTranslation();
  const { lang } = useShell();
  const nf = useNumberFormat();
  const { stake, typed, errors, amount, preview, forfeited, previewError, key } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const mark = decimalMarkOf(i18n.language);
  const scale = stakeScaleOf(stake.scale);
  const check = useMemo(() => stakeRedeemCheck(scale, mark), [scale, mark]);
  const [form] = useExchangeForm(check, { id: "stake-redeem", lastResult: actionData?.result });
  const flexible = stake.maturesAt === null;
  const term = flexible ? t("staking.flexible") : t("staking.days", { count: stake.termDays });
  const coin = stake.coin;
  const money = (v: string) => `${nf.fixed(v, scale)} ${coin}`;
  return (
    <div className={s.page}>
      <section className={`${c.card} ${c.narrow}`} aria-labelledby="redeem-title">
        <h1 id="redeem-title" className={c.title}>
          {t("staking.redeem_title")}
        </h1>
        <p className={s.links}>
          <Link to="/finance/investment/mine" className={s.link}>
            {t("staking.mine_title")}
          </Link>
        </p>
        <dl className={s.block} aria-label={t("staking.stake_facts")}>
          {(
            [
              ["stake", `${coin} · ${term}`],
              ["rate", `${nf.fixed(percentOf(stake.rate), 2)} %`],
              ["principal", money(stake.principal)],
              ["interest_so_far", money(stake.interest)],
              ["matures", flexible ? t("staking.flexible") : formatDateTime(stake.maturesAt!, lang)],
            ] as const
          ).map(([k, v]) => (
            <div key={k} className={s.fact}>
              <dt className={s.factLabel}>{t(`staking.col.${k}`)}</dt>
              <dd className={s.value}>{v}</dd>
            </div>
          ))}
        </dl>

        {flexible ? (
          // A GET form: the preview of a part is a page of its own, without JavaScript too.
          <Form method="get" aria-labelledby="redeem-amount-title" key={typed}>
            <h2 id="redeem-amount-title" className={c.subtitle}>
              {t("staking.how_much")}
            </h2>
            <AmountField
              label={t("staking.amount", { coin })}
              inputProps={{ id: "redeem-amount", name: "amount", defaultValue: typed }}
              errors={errors ?? undefined}
              hint={t("staking.redeem_hint", { amount: nf.fixed(stake.principal, scale), coin })}
              scale={scale}
              mark={mark}
            />
            <button type="submit" className={c.action}>
              {t("staking.show_preview")}
            </button>
          </Form>
        ) : null}

        <h2 id="preview-title" className={c.subtitle}>
          {t("staking.preview_title")}
        </h2>
        <div aria-live="polite">
          {previewError ? <FormErrors errors={[refusalError(previewError)]} /> : null}
          {preview ? (
            <>
              {preview.early ? (
                <p className={s.notice} role="note">
                  {t("staking.early_warning", {
                    date: formatDateTime(stake.maturesAt!, lang),
                    interest: money(stake.termInterest ?? "0"),
                  })}
                </p>
              ) : null}
              <dl className={s.block} aria-labelledby="preview-title" data-testid="stake-preview">
                {(
                  [
                    ["principal", preview.principal],
                    ["interest", preview.interest],
                    ...(preview.early ? ([["forfeited", forfeited!]] as const) : []),
                    ["payout", preview.payout],
                  ] as const
                ).map(([k, v]) => (
                  <div key={k} className={s.fact}>
                    <dt className={s.factLabel}>{t(`staking.preview.${k}`)}</dt>
                    <dd className={`${s.value} ${k === "forfeited" ? s.danger : ""}`} data-testid={`preview-${k}`}>
                      {money(v)}
                    </dd>
                  </div>
                ))}
              </dl>
              <Form method="post" {...getFormProps(form)} aria-labelledby="redeem-title">
                <FormErrors id={form.errorId} errors={form.errors} />
                <input type="hidden" name="stakeId" value={stake.stakeId} />
                {amount ? <input type="hidden" name="amount" value={toInputText(amount, mark)} /> : null}
                <input type="hidden" name="idempotencyKey" value={actionData?.key ?? key} />
                <p className={s.note}>{preview.closes ? t("staking.confirm_note_whole") : t("staking.confirm_note_part")}</p>
                <SubmitButton>{t("staking.confirm")}</SubmitButton>
              </Form>
            </>
          ) : null}
        </div>
      </section>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
