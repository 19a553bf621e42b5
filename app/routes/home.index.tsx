import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageErrorBoundary } from "~/components/error-page";
import { toDisplayMoney } from "~/lib/display-currency";
import { formatDisplayNumber } from "~/lib/number-format";
import { pageTitle, useShell } from "~/lib/use-shell";
import { orUnavailable } from "~/services/errors.server";
import { detectLanguage } from "~/services/i18n.server";
import { loadSpotSnapshot } from "~/services/market.server";
import * as s from "./home.index.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "home.title") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const markets = await orUnavailable(request, loadSpotSnapshot(await detectLanguage(request)));
  return { markets };
}

const PRODUCTS = ["spot", "contract", "margin", "pulse", "staking", "subscription", "otc", "support"] as const;

export default function HomePage() {
  const { t } = useTranslation();
  const { markets } = useLoaderData<typeof loader>();
  const { site, currency } = useShell();
  return (
    <div className={s.page}>
      <section className={s.hero} aria-labelledby="hero-title">
        <div>
          <h1 id="hero-title" className={s.heroTitle}>
            {t("home.hero.title")}
          </h1>
          <p className={s.heroText}>{t("home.hero.subtitle")}</p>
          <div className={s.heroActions}>
            <Link to="/user/register" className={s.cta}>
              {t("home.hero.cta_register")}
            </Link>
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
            <dd className={s.statValue}>{t("home.stats.reserve_value", { value: formatDisplayNumber(site.reserveBtc) })}</dd>
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
        <div className={s.tableWrap}>
          <table className={s.table}>
            <caption className="visually-hidden">{t("home.markets.caption", { currency: currency.quote })}</caption>
            <thead>
              <tr>
                <th scope="col" className={s.th}>{t("home.markets.pair")}</th>
                <th scope="col" className={s.th}>{t("home.markets.last_price", { currency: currency.quote })}</th>
                <th scope="col" className={s.th}>{t("home.markets.change")}</th>
                <th scope="col" className={s.th}>{t("home.markets.high")}</th>
                <th scope="col" className={s.th}>{t("home.markets.low")}</th>
                <th scope="col" className={s.th}>{t("home.markets.volume")}</th>
              </tr>
            </thead>
            <tbody>
              {markets.length === 0 ? (
                <tr>
                  <td colSpan={6} className={s.empty}>
                    {t("home.markets.empty")}
                  </td>
                </tr>
              ) : (
                markets.map((item) => (
                  <tr key={item.symbolName}>
                    <th scope="row" className={s.td}>{item.symbolName}</th>
                    <td className={s.td}>{toDisplayMoney(item.close, currency)}</td>
                    <td className={`${s.td} ${item.zdf?.startsWith("-") ? s.down : s.up}`}>
                      {item.zdf === null ? "--" : `${item.zdf.startsWith("-") ? "" : "+"}${item.zdf}%`}
                    </td>
                    <td className={s.td}>{toDisplayMoney(item.high, currency)}</td>
                    <td className={s.td}>{toDisplayMoney(item.low, currency)}</td>
                    <td className={s.td}>{formatDisplayNumber(item.vol)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="products-title">
        <h2 id="products-title" className={s.sectionTitle}>
          {t("home.products.title")}
        </h2>
        <ul className={s.products}>
          {PRODUCTS.map((product) => (
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
