import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import { decimalMarkOf, toInputText } from "#protocol/decimal-input";
import { AmountField } from "~/components/amount-field";
import { PageErrorBoundary } from "~/components/error-page";
import { FormErrors, SelectField, SubmitButton } from "~/components/forms";
import { percentOf } from "~/components/loans/percent";
import { pledgeChangeCheck } from "~/lib/forms/checks/pledge";
import { getFormProps, getInputProps, getSelectProps } from "~/lib/forms/form-props";
import { LOAN_OPERATIONS, type LoanOperation } from "~/lib/forms/pledge";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle, useShell } from "~/lib/use-shell";
import { formatDateTime } from "~/lib/dates";
import { withMember } from "~/services/engine/route.server";
import { loadMyLoans, myLoansAction } from "~/services/loans/loans.server";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/loans.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "loans.my_loans") }];

/** The member's open crypto loans (spec §2 `/my-loan`; decision 051): each with its LTV, what it owes, and a form to repay or change its collateral. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadMyLoans(engine));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => myLoansAction(engine));
}

type Loan = ReturnType<typeof useLoaderData<typeof loader>>["loans"][number];

export default function MyLoansPage() {
  const { t } = useTranslation();
  const { loans, asked, closed } = useLoaderData<typeof loader>();
  return (
    <div className={s.page}>
      <section className={c.card} aria-labelledby="my-loans-title">
        <h1 id="my-loans-title" className={c.title}>
          {t("loans.my_loans")}
        </h1>
        <p className={s.links}>
          <Link to="/my-loan/get" className={s.link}>
            {t("loans.borrow_title")}
          </Link>
          <Link to="/pledge-loan" className={s.link}>
            {t("loans.calculator_title")}
          </Link>
          <Link to="/borrowings" className={s.link}>
            {t("loans.history_title")}
          </Link>
          <Link to="/borrowings/records" className={s.link}>
            {t("loans.records_title")}
          </Link>
        </p>
        {closed ? (
          <p className={s.warned} role="status">
            {t(closed.status === "liquidated" ? "loans.closed_liquidated" : "loans.closed_repaid", { loan: closed.loanId })}
          </p>
        ) : null}
        {loans.length === 0 ? (
          <p className={s.empty}>{t("loans.no_loans")}</p>
        ) : (
          <ul className={s.loans} aria-label={t("loans.open_loans")}>
            {loans.map((loan) => (
              <LoanCard key={loan.loanId} loan={loan} asked={loan.loanId === asked} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function LoanCard({ loan, asked }: { loan: Loan; asked: boolean }) {
  const { t, i18n } = useTranslation();
  const { lang } = useShell();
  const nf = useNumberFormat();
  const actionData = useActionData<typeof action>();
  const mark = decimalMarkOf(i18n.language);
  const mine = actionData && "loanId" in actionData && actionData.loanId === loan.loanId ? actionData : null;
  const [operation, setOperation] = useState<LoanOperation>("repay");
  const coin = operation === "repay" ? loan.loanCoin : loan.collateralCoin;
  const scale = operation === "repay" ? loan.loanScale : loan.collateralScale;
  const check = useMemo(() => pledgeChangeCheck(scale, mark), [scale, mark]);
  const [form, fields] = useExchangeForm(check, {
    id: `loan-${loan.loanId}`,
    lastResult: mine?.result,
    defaultValue: { loanId: loan.loanId, operation: "repay" },
  });
  const pct = (v: string | null) => (v === null ? "—" : `${nf.fixed(percentOf(v), 2)} %`);
  const most = operation === "repay" ? loan.owed : operation === "add" ? loan.fundingCollateral : loan.removable;
  const titleId = `loan-${loan.loanId}-title`;
  const term = loan.termDays === 0 ? t("loans.flexible") : t("loans.days", { count: loan.termDays });
  return (
    <li className={s.loan} data-asked={asked ? "true" : undefined} aria-labelledby={titleId} data-testid="loan">
      <div className={s.loanHead}>
        <h2 id={titleId} className={s.loanTitle}>
          {t("loans.loan_name", { amount: nf.display(loan.principal), loan: loan.loanCoin, collateral: loan.collateralCoin })}
        </h2>
        <span className={s.badge}>
          {term} · {loan.loanId}
        </span>
      </div>
      {loan.warned ? (
        <p className={s.warned} role="status">
          {t("loans.warned", { ltv: pct(loan.ltv), liquidation: pct(loan.liquidationLtv) })}
        </p>
      ) : null}
      <div className={s.facts}>
        <dl className={s.facts}>
          {(
            [
              ["owed", `${nf.fixed(loan.owed, loan.loanScale)} ${loan.loanCoin}`],
              ["interest", `${nf.fixed(loan.interest, loan.loanScale)} ${loan.loanCoin}`],
              ["collateral", `${nf.fixed(loan.collateral, loan.collateralScale)} ${loan.collateralCoin}`],
              ["ltv", pct(loan.ltv)],
              ["lines", `${pct(loan.initialLtv)} / ${pct(loan.callLtv)} / ${pct(loan.liquidationLtv)}`],
              ["liquidation_price", loan.liquidationPrice === null ? "—" : `${nf.display(loan.liquidationPrice)} ${loan.loanCoin}`],
              ["due", loan.dueAt === null ? t("loans.flexible") : formatDateTime(loan.dueAt, lang)],
            ] as const
          ).map(([key, value]) => (
            <div key={key} className={s.fact}>
              <dt className={c.factLabel}>{t(`loans.fact.${key}`)}</dt>
              <dd className={`${s.value} ${key === "ltv" && loan.warned ? s.danger : ""}`} data-testid={`loan-${key}`}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
        {loan.ltv !== null ? (
          <meter
            className={s.meter}
            min={0}
            max={Number(loan.liquidationLtv)}
            low={Number(loan.initialLtv)}
            high={Number(loan.callLtv)}
            optimum={0}
            value={Math.min(Number(loan.ltv), Number(loan.liquidationLtv))}
            aria-label={t("loans.fact.ltv")}
          />
        ) : null}
        {loan.overdue ? <p className={s.danger}>{t("loans.overdue")}</p> : null}
      </div>
      <Form method="post" {...getFormProps(form)} aria-labelledby={titleId}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="loanId" value={loan.loanId} />
        <input type="hidden" name="idempotencyKey" value={mine?.key ?? loan.key} />
        <SelectField
          label={t("loans.operation")}
          selectProps={{ ...getSelectProps(fields.operation), onChange: (e) => setOperation(e.currentTarget.value as LoanOperation) }}
          errors={fields.operation.errors}
        >
          {LOAN_OPERATIONS.map((op) => (
            <option key={op} value={op}>
              {t(`loans.op.${op}`)}
            </option>
          ))}
        </SelectField>
        <AmountField
          label={t("loans.amount")}
          inputProps={getInputProps(fields.amount, { type: "text" })}
          errors={fields.amount.errors}
          hint={t(`loans.most.${operation}`, { amount: nf.fixed(most, scale), coin })}
          onMax={() => form.update({ name: fields.amount.name, value: toInputText(most, mark) })}
          scale={scale}
          mark={mark}
        />
        <p className={s.note}>{t("loans.repay_note")}</p>
        <SubmitButton>{t("loans.submit")}</SubmitButton>
      </Form>
    </li>
  );
}

export const ErrorBoundary = PageErrorBoundary;
