import type { MetaFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { PreferenceForm } from "~/components/header/preference-form";
import { PageErrorBoundary } from "~/components/error-page";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle, useShell } from "~/lib/use-shell";
import { decimals } from "#protocol/decimal";
import { loadRates, loadSite } from "~/services/platform/site.server";
import * as s from "./index.css";
import { withEngine } from "~/services/engine/route.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "rates.title") }];

/**
 * Spec §2 /rate/index, "Fees & Rates": every market's trading fees (maker and taker), then the
 * display-currency rates (`open/getCoinRate`) and a way to pick one.
 */
export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, async ({ engine }) => {
    const [rates, site, symbols] = await Promise.all([engine.guard(loadRates), engine.guard(loadSite), engine.market.symbols()]);
    return {
      fees: symbols.map((m) => ({ symbol: m.symbolName, maker: m.makerFee, taker: m.takerFee })),
      rates: rates.map((r) => ({ code: r.exchange_value, quote: r.quote_currency, symbol: r.exchange_code, rate: r.rate.replace(/\.?0+$/, "") })),
      refreshMinutes: Math.round(site.config.rateRefreshMs / 60_000),
    };
  });
}

export default function RatesPage() {
  const { t } = useTranslation();
  const { rates, refreshMinutes, fees } = useLoaderData<typeof loader>();
  const { currency, site } = useShell();
  const nf = useNumberFormat();
  return (
    <div className={s.page}>
      <h1 className={s.title}>{t("rates.title")}</h1>
      <section className={s.section} aria-labelledby="trading-fees">
        <h2 id="trading-fees" className={s.subtitle}>
          {t("rates.trading_fees")}
        </h2>
        <p className={s.intro}>{t("rates.trading_fees_intro")}</p>
        <div className={s.tableWrap}>
          <table>
            <thead>
              <tr>
                <th scope="col" className={s.th}>
                  {t("rates.market")}
                </th>
                <th scope="col" className={s.thNumber}>
                  {t("rates.maker")}
                </th>
                <th scope="col" className={s.thNumber}>
                  {t("rates.taker")}
                </th>
              </tr>
            </thead>
            <tbody>
              {fees.map((fee) => (
                <tr key={fee.symbol}>
                  <th scope="row" className={s.td}>
                    <Link to={`/exchange/full-screen/${fee.symbol.replace("/", "_")}`}>{fee.symbol}</Link>
                  </th>
                  <td className={s.tdNumber}>{t("rates.percent", { value: nf.mark(fee.maker) })}</td>
                  <td className={s.tdNumber}>{t("rates.percent", { value: nf.mark(fee.taker) })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <h2 className={s.subtitle}>{t("rates.rates_title")}</h2>
      <p className={s.intro}>{t("rates.intro", { site: site.name })}</p>
      <div className={s.tableWrap}>
        <table>
          <caption className="visually-hidden">{t("rates.rates_title")}</caption>
          <thead>
            <tr>
              <th scope="col" className={s.th}>
                {t("rates.currency")}
              </th>
              <th scope="col" className={s.th}>
                {t("rates.symbol")}
              </th>
              <th scope="col" className={s.th}>
                {t("rates.rate")}
              </th>
              <th scope="col" className={s.th}>
                <span className="visually-hidden">{t("rates.action")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rates.map((rate) => (
              <tr key={rate.code}>
                <th scope="row" className={s.td}>
                  {rate.quote}
                </th>
                <td className={s.td}>{rate.symbol}</td>
                {/* Every decimal of the rate is kept: it is what prices are converted with. */}
                <td className={s.tdNumber}>{nf.fixed(rate.rate, decimals(rate.rate))}</td>
                <td className={s.td}>
                  {rate.code === currency.code ? (
                    <span className={s.current}>{t("rates.current")}</span>
                  ) : (
                    <PreferenceForm intent="currency">
                      <button type="submit" name="value" value={rate.code} className={s.use}>
                        {t("rates.use", { currency: rate.quote })}
                      </button>
                    </PreferenceForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className={s.note}>{t("rates.note", { minutes: refreshMinutes })}</p>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
