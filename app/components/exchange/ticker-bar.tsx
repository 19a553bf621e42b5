import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import type { MarketItem } from "#protocol/market";
import { clsx } from "~/lib/clsx";
import { formatPercentChange } from "~/lib/number-format";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "./exchange.css";

export function toneOf(change: string | null | undefined): "up" | "down" | "flat" {
  if (!change || !/[1-9]/.test(change)) return "flat";
  return change.startsWith("-") ? "down" : "up";
}

/**
 * The symbol, its last price and 24 h figures (in the member's language; prices with the market's
 * price decimals, like the book), and a list to switch markets (links: no script needed).
 */
export function TickerBar({ ticker, markets, symbol, priceScale }: { ticker: MarketItem; markets: MarketItem[]; symbol: string; priceScale: number }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const tone = toneOf(ticker.zdf);
  const [base, quote] = symbol.split("/");
  return (
    <div className={s.bar}>
      <details className={s.switcher}>
        <summary className={s.switcherSummary}>
          <h1 className={s.symbolTitle}>
            {base}
            <span className={s.statLabel}>/{quote}</span>
          </h1>
          <span className="visually-hidden">{t("exchange.switch_market")}</span>
        </summary>
        <ul className={s.switcherList} aria-label={t("exchange.markets")}>
          {markets.map((m) => (
            <li key={m.symbolName}>
              <Link
                to={`/exchange/full-screen/${m.symbolName.replace("/", "_")}`}
                className={s.switcherLink}
                aria-current={m.symbolName === symbol ? "page" : undefined}
              >
                <span>{m.symbolName}</span>
                <span>{nf.display(m.close, { abbreviate: false })}</span>
                <span className={s.tone[toneOf(m.zdf)]}>{nf.mark(formatPercentChange(m.zdf))}</span>
              </Link>
            </li>
          ))}
        </ul>
      </details>
      <div>
        <span className={clsx(s.lastPrice, s.tone[tone])} data-testid="last-price">
          {nf.fixed(ticker.close, priceScale)}
        </span>
      </div>
      <dl className={s.stats}>
        <div className={s.stat}>
          <dt className={s.statLabel}>{t("exchange.change_24h")}</dt>
          <dd className={clsx(s.statValue, s.tone[tone])}>{nf.mark(formatPercentChange(ticker.zdf))}</dd>
        </div>
        <div className={s.stat}>
          <dt className={s.statLabel}>{t("exchange.high_24h")}</dt>
          <dd className={s.statValue}>{nf.fixed(ticker.high, priceScale)}</dd>
        </div>
        <div className={s.stat}>
          <dt className={s.statLabel}>{t("exchange.low_24h")}</dt>
          <dd className={s.statValue}>{nf.fixed(ticker.low, priceScale)}</dd>
        </div>
        <div className={s.stat}>
          <dt className={s.statLabel}>{t("exchange.volume_24h", { unit: base })}</dt>
          <dd className={s.statValue}>{nf.display(ticker.vol)}</dd>
        </div>
        <div className={s.stat}>
          <dt className={s.statLabel}>{t("exchange.turnover_24h", { unit: quote })}</dt>
          <dd className={s.statValue}>{nf.display(ticker.amount)}</dd>
        </div>
      </dl>
    </div>
  );
}
