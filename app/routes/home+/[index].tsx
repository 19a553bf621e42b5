import type { MetaFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { PageErrorBoundary } from "~/components/error-page";
import { MarketTable } from "~/components/market-table";
import { tradingPath } from "~/lib/market-list";
import { useNumberFormat } from "~/lib/use-number-format";
import { liveProducts } from "~/lib/products";
import { pageTitle, useIsServed, useShell } from "~/lib/use-shell";
import * as s from "./index.css";
import { withEngine } from "~/services/engine/route.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "home.title") }];

export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, async ({ engine }) => ({ markets: await engine.market.snapshot() }));
}

export default function HomePage() {
  const { t } = useTranslation();
  const { markets } = useLoaderData<typeof loader>();
  const shell = useShell();
  const { site, currency } = shell;
  const products = liveProducts(useIsServed());
  const nf = useNumberFormat();
  return (
    <div className={s.page}>
      <section className={s.hero} aria-labelledby="hero-title">
        <div>
          <h1 id="hero-title" className={s.heroTitle}>
            {t("home.hero.title")}
          </h1>
          <p className={s.heroText}>{t("home.hero.subtitle")}</p>
          <div className={s.heroActions}>
            {/* A member has an account: the hero leads them to trade instead. */}
            {shell.member ? (
              <Link to={markets[0] ? tradingPath(markets[0]) : "/market/main"} className={s.cta}>
                {t("home.hero.cta_trade")}
              </Link>
            ) : (
              <Link to="/user/register" className={s.cta}>
                {t("home.hero.cta_register")}
              </Link>
            )}
          </div>
        </div>
        <img src="/images/hero.svg" alt={t("home.hero.image_alt")} className={s.heroImage} width="480" height="320" />
      </section>

      <section aria-labelledby="stats-title">
        <h2 id="stats-title" className="visually-hidden">
          {t("home.stats.title")}
        </h2>
        <dl className={s.stats}>
          <div className={s.stat}>
            <dt className={s.statLabel}>{t("home.stats.reserve_label")}</dt>
            <dd className={s.statValue}>{t("home.stats.reserve_value", { value: nf.display(site.reserveBtc) })}</dd>
          </div>
          <div className={s.stat}>
            <dt className={s.statLabel}>{t("home.stats.countries_label")}</dt>
            <dd className={s.statValue}>{t("home.stats.countries_value", { value: site.countries })}</dd>
          </div>
          <div className={s.stat}>
            <dt className={s.statLabel}>{t("home.stats.languages_label")}</dt>
            <dd className={s.statValue}>9</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="markets-title">
        <h2 id="markets-title" className={s.sectionTitle}>
          {t("home.markets.title")}
        </h2>
        <MarketTable
          items={markets}
          currency={currency}
          rowHref={tradingPath}
          caption={t("home.markets.caption", { currency: currency.quote })}
          empty={t("home.markets.empty")}
        />
      </section>

      <section aria-labelledby="products-title">
        <h2 id="products-title" className={s.sectionTitle}>
          {t("home.products.title")}
        </h2>
        <ul className={s.products}>
          {products.map((product) => (
            <li key={product} className={s.product}>
              <h3 className={s.productTitle}>{t(`home.products.${product}.title`)}</h3>
              <p className={s.productText}>{t(`home.products.${product}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
