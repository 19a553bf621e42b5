import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { decimalMarkOf, toInputText } from "#protocol/decimal-input";
import { AmountField } from "~/components/amount-field";
import { PageErrorBoundary } from "~/components/error-page";
import { FormErrors, SubmitButton } from "~/components/forms";
import { percentOf } from "~/components/loans/percent";
import { stakeInvestCheck } from "~/lib/forms/checks/stake";
import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import { stakeScaleOf } from "~/lib/forms/stake";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withEngine, withMember } from "~/services/engine/route.server";
import { loadStakeMarket, stakeAction } from "~/services/staking/staking.server";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/staking.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "staking.title") }];

/** Staking (spec §2 `/finance/investment`; decision 052): the products of a coin for anyone, each with its stake form for a member. */
export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, ({ engine }) => loadStakeMarket(engine));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => stakeAction(engine));
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Product = Data["products"][number];

export default function StakingPage() {
  const { t } = useTranslation();
  const { coins, coin, products, wallet, signedIn } = useLoaderData<typeof loader>();
  const here = `/finance/investment${coin ? `?coin=${coin}` : ""}`;
  return (
    <div className={s.page}>
      <section className={c.card} aria-labelledby="staking-title">
        <h1 id="staking-title" className={c.title}>
          {t("staking.title")}
        </h1>
        <p className={s.lead}>{t("staking.lead")}</p>
        {signedIn ? (
          <p className={s.links}>
            <Link to="/finance/investment/mine" className={s.link}>
              {t("staking.mine_title")}
            </Link>
            <Link to="/finance/investment/records" className={s.link}>
              {t("staking.records_title")}
            </Link>
          </p>
        ) : null}
        <nav aria-label={t("staking.coins")}>
          <ul className={s.tabs}>
            {coins.map((x) => (
              <li key={x}>
                <Link to={`?coin=${x}`} className={s.tab} aria-current={x === coin ? "page" : undefined} preventScrollReset>
                  {x}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <h2 id="staking-products" className={c.subtitle}>
          {t("staking.products_title", { coin: coin ?? "" })}
        </h2>
        {products.length === 0 ? (
          <p className={s.empty}>{t("staking.no_products")}</p>
        ) : (
          <ul className={s.products} aria-labelledby="staking-products" data-testid="stake-products">
            {products.map((p) => (
              <ProductCard key={p.productId} product={p} wallet={wallet} loginHref={`/user/login?redirectTo=${encodeURIComponent(here)}`} />
            ))}
          </ul>
        )}
        <p className={s.note}>{t("staking.rules_note")}</p>
      </section>
    </div>
  );
}

function ProductCard({ product: p, wallet, loginHref }: { product: Product; wallet: Data["wallet"]; loginHref: string }) {
  const { t, i18n } = useTranslation();
  const nf = useNumberFormat();
  const actionData = useActionData<typeof action>();
  const mark = decimalMarkOf(i18n.language);
  const scale = stakeScaleOf(wallet?.scale ?? 8);
  const mine = actionData && actionData.productId === p.productId ? actionData : null;
  const check = useMemo(() => stakeInvestCheck(scale, mark), [scale, mark]);
  const [form, fields] = useExchangeForm(check, { id: `stake-${p.productId}`, lastResult: mine?.result, defaultValue: { productId: p.productId } });
  const titleId = `stake-${p.productId}-title`;
  const term = p.termDays === 0 ? t("staking.flexible") : t("staking.days", { count: p.termDays });
  return (
    <li className={s.product} aria-labelledby={titleId} data-testid="stake-product">
      <div className={s.productHead}>
        <h3 id={titleId} className={s.termName}>
          {term}
        </h3>
        <span className={s.badge}>{p.termDays === 0 ? t("staking.flexible_note") : t("staking.fixed_note")}</span>
      </div>
      <div>
        <p className={s.rate}>{`${nf.fixed(percentOf(p.yearlyRate), 2)} %`}</p>
        <p className={s.small}>{t("staking.yearly")}</p>
      </div>
      <dl className={s.facts}>
        {(
          [
            ["min", p.minAmount],
            ["max", p.maxPerMember],
            ["left", p.available],
          ] as const
        ).map(([key, value]) => (
          <div key={key} className={s.fact}>
            <dt className={s.factLabel}>{t(`staking.fact.${key}`)}</dt>
            <dd className={s.value}>
              {nf.display(value)} {p.coin}
            </dd>
          </div>
        ))}
      </dl>
      {wallet ? (
        <Form method="post" {...getFormProps(form)} aria-labelledby={titleId}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="productId" value={p.productId} />
          <input type="hidden" name="idempotencyKey" value={mine?.key ?? p.key} />
          <AmountField
            label={t("staking.amount", { coin: p.coin })}
            inputProps={getInputProps(fields.amount, { type: "text" })}
            errors={fields.amount.errors}
            hint={t("staking.available", { amount: nf.fixed(wallet.available, scale), coin: p.coin })}
            onMax={() => form.update({ name: fields.amount.name, value: toInputText(wallet.available, mark) })}
            scale={scale}
            mark={mark}
          />
          <SubmitButton>{t("staking.stake")}</SubmitButton>
        </Form>
      ) : (
        <p>
          <Link to={loginHref} className={c.action}>
            {t("staking.log_in_to_stake")}
          </Link>
        </p>
      )}
    </li>
  );
}

export const ErrorBoundary = PageErrorBoundary;
