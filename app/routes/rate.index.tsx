import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PreferenceForm } from "~/components/header/preference-form";
import { PageErrorBoundary } from "~/components/error-page";
import { pageTitle, useShell } from "~/lib/use-shell";
import { orUnavailable } from "~/services/errors.server";
import { loadRates, loadSite } from "~/services/site.server";
import * as s from "./rate.index.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "rates.title") }];

/** Spec §2 /rate/index: the display-currency rates (`open/getCoinRate`) and a way to pick one. */
export async function loader({ request }: LoaderFunctionArgs) {
  const [rates, site] = await orUnavailable(request, Promise.all([loadRates(), loadSite()]));
  return {
    rates: rates.map((r) => ({ code: r.exchange_value, quote: r.quote_currency, symbol: r.exchange_code, rate: r.rate.replace(/\.?0+$/, "") })),
    refreshMinutes: Math.round(site.config.rateRefreshMs / 60_000),
  };
}

export default function RatesPage() {
  const { t } = useTranslation();
  const { rates, refreshMinutes } = useLoaderData<typeof loader>();
  const { currency, site } = useShell();
  return (
    <div className={s.page}>
      <h1 className={s.title}>{t("rates.title")}</h1>
      <p className={s.intro}>{t("rates.intro", { site: site.name })}</p>
      <div className={s.tableWrap}>
        <table>
          <caption className="visually-hidden">{t("rates.title")}</caption>
          <thead>
            <tr>
              <th scope="col" className={s.th}>{t("rates.currency")}</th>
              <th scope="col" className={s.th}>{t("rates.symbol")}</th>
              <th scope="col" className={s.th}>{t("rates.rate")}</th>
              <th scope="col" className={s.th}>
                <span className="visually-hidden">{t("rates.action")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rates.map((rate) => (
              <tr key={rate.code}>
                <th scope="row" className={s.td}>{rate.quote}</th>
                <td className={s.td}>{rate.symbol}</td>
                <td className={s.tdNumber}>{rate.rate}</td>
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
