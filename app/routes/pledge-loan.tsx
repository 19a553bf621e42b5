import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { PageErrorBoundary } from "~/components/error-page";
import { Field, FormErrors, SelectField } from "~/components/forms";
import { percentOf } from "~/components/loans/percent";
import { refusalError } from "~/lib/forms/form-error";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withEngine } from "~/services/engine/route.server";
import { loadLoanMarket } from "~/services/loans/loans.server";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/loans.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "loans.market_title") }];

/** Crypto loans (spec §2 `/pledge-loan`; decision 051): the products of a collateral coin and the calculator, for anyone. */
export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, ({ engine }) => loadLoanMarket(engine));
}

export default function LoanMarketPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const { coins, coin, products, chosen, values, errors, quote, quoteError, signedIn } = useLoaderData<typeof loader>();
  const pct = (v: string | null) => (v === null ? "—" : `${nf.fixed(percentOf(v), 2)} %`);
  const term = (days: number) => (days === 0 ? t("loans.flexible") : t("loans.days", { count: days }));
  const borrowHref = `/my-loan/get?${new URLSearchParams({
    ...(chosen ? { product: chosen.productId } : {}),
    ...(values.amount ? { amount: values.amount } : {}),
    ...(values.collateral ? { collateral: values.collateral } : {}),
  })}`;
  return (
    <div className={s.page}>
      <section className={c.card} aria-labelledby="loans-title">
        <h1 id="loans-title" className={c.title}>
          {t("loans.market_title")}
        </h1>
        <p className={s.lead}>{t("loans.market_lead")}</p>
        <p className={s.links}>
          <Link to="/my-loan" className={s.link}>
            {t("loans.my_loans")}
          </Link>
          <Link to="/borrowings" className={s.link}>
            {t("loans.history_title")}
          </Link>
        </p>
        <nav aria-label={t("loans.collateral_coins")}>
          <ul className={s.tabs}>
            {coins.map((x) => (
              <li key={x}>
                <Link to={`?coin=${x}`} className={s.tab} aria-current={x === coin ? "page" : undefined} preventScrollReset>
                  {t("loans.against", { coin: x })}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <h2 id="loans-terms" className={c.subtitle}>
          {t("loans.terms_title", { coin: coin ?? "" })}
        </h2>
        <ul className={s.terms} aria-labelledby="loans-terms" data-testid="loan-terms">
          {products.map((p) => (
            <li key={p.productId} className={s.termCard}>
              <h3 className={s.termName}>{term(p.termDays)}</h3>
              <p className={s.rate}>{pct(p.yearlyRate)}</p>
              <p className={s.small}>{t("loans.yearly")}</p>
              <p className={s.small}>{t("loans.ltv_lines", { initial: pct(p.initialLtv), call: pct(p.callLtv), liquidation: pct(p.liquidationLtv) })}</p>
              <p className={s.small}>{t("loans.bounds", { min: nf.display(p.minAmount), max: nf.display(p.maxAmount), coin: p.loanCoin })}</p>
            </li>
          ))}
        </ul>
      </section>

      {chosen ? (
        <section className={c.card} aria-labelledby="loans-calculator">
          <h2 id="loans-calculator" className={c.subtitle}>
            {t("loans.calculator_title")}
          </h2>
          <p className={s.small}>
            {chosen.price === null
              ? t("loans.no_price", { coin: chosen.collateralCoin })
              : t("loans.price", { coin: chosen.collateralCoin, price: nf.display(chosen.price), quote: chosen.loanCoin })}
          </p>
          <div className={s.grid}>
            {/* A GET form: the answer is a page of its own, without JavaScript too. */}
            <Form method="get" aria-labelledby="loans-calculator" key={`${chosen.productId}:${values.amount}:${values.collateral}`}>
              <input type="hidden" name="coin" value={chosen.collateralCoin} />
              <SelectField label={t("loans.term")} selectProps={{ id: "loan-product", name: "product", defaultValue: chosen.productId }}>
                {products.map((p) => (
                  <option key={p.productId} value={p.productId}>
                    {term(p.termDays)} · {pct(p.yearlyRate)}
                  </option>
                ))}
              </SelectField>
              <Field
                label={t("loans.collateral_amount", { coin: chosen.collateralCoin })}
                inputProps={{ id: "loan-collateral", name: "collateral", inputMode: "decimal", autoComplete: "off", defaultValue: values.collateral }}
                errors={errors?.collateral}
              />
              <Field
                label={t("loans.loan_amount", { coin: chosen.loanCoin })}
                inputProps={{ id: "loan-amount", name: "amount", inputMode: "decimal", autoComplete: "off", defaultValue: values.amount }}
                errors={errors?.amount}
                hint={t("loans.calculator_hint")}
              />
              <button type="submit" className={c.action}>
                {t("loans.calculate")}
              </button>
            </Form>
            <div aria-live="polite">
              {quoteError ? <FormErrors errors={[refusalError(quoteError)]} /> : null}
              {quote ? (
                <dl className={s.quote} data-testid="loan-quote">
                  {(
                    [
                      ["max_amount", quote.maxAmount, chosen.loanCoin],
                      ["min_collateral", quote.minCollateral, chosen.collateralCoin],
                      ["ltv", quote.ltv === null ? null : pct(quote.ltv), ""],
                      ["first_hour", quote.firstHourInterest, chosen.loanCoin],
                      ["daily", quote.dailyInterest, chosen.loanCoin],
                      [chosen.termDays ? "term_interest" : "month_interest", quote.termInterest, chosen.loanCoin],
                      ["liquidation_price", quote.liquidationPrice, chosen.loanCoin],
                    ] as const
                  ).map(([key, value, unit]) =>
                    value === null ? null : (
                      <div key={key} className={s.quoteRow}>
                        <dt>{t(`loans.quote.${key}`)}</dt>
                        <dd className={s.quoteValue}>{key === "ltv" ? value : `${nf.display(value)} ${unit}`}</dd>
                      </div>
                    ),
                  )}
                </dl>
              ) : (
                <p className={s.small}>{t("loans.calculator_empty")}</p>
              )}
              <p className={s.links}>
                <Link to={signedIn ? borrowHref : `/user/login?redirectTo=${encodeURIComponent(borrowHref)}`} className={c.action}>
                  {t("loans.borrow_now")}
                </Link>
              </p>
            </div>
          </div>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
