import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import { decimalMarkOf, toInputText } from "#protocol/decimal-input";
import { AmountField } from "~/components/amount-field";
import { PageErrorBoundary } from "~/components/error-page";
import { FormErrors, SelectField, SubmitButton } from "~/components/forms";
import { percentOf } from "~/components/loans/percent";
import { pledgeBorrowCheck } from "~/lib/forms/checks/pledge";
import { getFormProps, getInputProps, getSelectProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { borrowAction, loadBorrowPage } from "~/services/loans/loans.server";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/loans.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "loans.borrow_title") }];

/** Taking a crypto loan (spec §2 `/my-loan/get`; decision 051): a product, the collateral and the amount. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadBorrowPage(engine));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => borrowAction(engine));
}

export default function BorrowPage() {
  const { t, i18n } = useTranslation();
  const nf = useNumberFormat();
  const { products, chosen, values, key } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const mark = decimalMarkOf(i18n.language);
  const [productId, setProductId] = useState(chosen ?? products[0]?.productId ?? "");
  const product = products.find((p) => p.productId === productId) ?? products[0];
  const loanScale = product?.loanScale ?? 8;
  const collateralScale = product?.collateralScale ?? 8;
  const check = useMemo(() => pledgeBorrowCheck(loanScale, collateralScale, mark), [loanScale, collateralScale, mark]);
  const [form, fields] = useExchangeForm(check, {
    id: "loan-borrow",
    lastResult: actionData?.result,
    defaultValue: { productId, amount: values.amount, collateral: values.collateral },
  });
  const pct = (v: string) => `${nf.fixed(percentOf(v), 2)} %`;
  const term = (days: number) => (days === 0 ? t("loans.flexible") : t("loans.days", { count: days }));
  if (!product) return <p className={s.empty}>{t("loans.no_products")}</p>;
  return (
    <div className={s.page}>
      <section className={`${c.card} ${c.narrow}`} aria-labelledby="borrow-title">
        <h1 id="borrow-title" className={c.title}>
          {t("loans.borrow_title")}
        </h1>
        <p className={s.links}>
          <Link to={`/pledge-loan?product=${product.productId}`} className={s.link}>
            {t("loans.calculator_title")}
          </Link>
          <Link to="/my-loan" className={s.link}>
            {t("loans.my_loans")}
          </Link>
        </p>
        <Form method="post" {...getFormProps(form)} aria-labelledby="borrow-title">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="idempotencyKey" value={actionData?.key ?? key} />
          <SelectField
            label={t("loans.product")}
            selectProps={{ ...getSelectProps(fields.productId), onChange: (e) => setProductId(e.currentTarget.value) }}
            errors={fields.productId.errors}
          >
            {products.map((p) => (
              <option key={p.productId} value={p.productId}>
                {t("loans.product_name", { loan: p.loanCoin, collateral: p.collateralCoin, term: term(p.termDays) })} · {pct(p.yearlyRate)}
              </option>
            ))}
          </SelectField>
          <AmountField
            label={t("loans.collateral_amount", { coin: product.collateralCoin })}
            inputProps={getInputProps(fields.collateral, { type: "text" })}
            errors={fields.collateral.errors}
            hint={t("loans.held", { amount: nf.fixed(product.held, collateralScale), coin: product.collateralCoin })}
            onMax={() => form.update({ name: fields.collateral.name, value: toInputText(product.held, mark) })}
            scale={collateralScale}
            mark={mark}
          />
          <AmountField
            label={t("loans.loan_amount", { coin: product.loanCoin })}
            inputProps={getInputProps(fields.amount, { type: "text" })}
            errors={fields.amount.errors}
            hint={t("loans.bounds", { min: nf.display(product.minAmount), max: nf.display(product.maxAmount), coin: product.loanCoin })}
            scale={loanScale}
            mark={mark}
          />
          <dl className={s.quote}>
            <div className={s.quoteRow}>
              <dt>{t("loans.rate_line")}</dt>
              <dd className={s.quoteValue}>
                {pct(product.yearlyRate)} · {t("loans.hourly", { rate: nf.display(product.hourlyRate) })}
              </dd>
            </div>
            <div className={s.quoteRow}>
              <dt>{t("loans.ltv_title")}</dt>
              <dd className={s.quoteValue}>
                {pct(product.initialLtv)} / {pct(product.callLtv)} / {pct(product.liquidationLtv)}
              </dd>
            </div>
          </dl>
          <p className={s.note}>
            {t("loans.rules_note", { initial: pct(product.initialLtv), call: pct(product.callLtv), liquidation: pct(product.liquidationLtv) })}
          </p>
          <SubmitButton>{t("loans.borrow_submit")}</SubmitButton>
        </Form>
      </section>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
