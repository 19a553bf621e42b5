import { useTranslation } from "react-i18next";
import type { PublicTrade } from "#protocol/endpoints/market-data";
import { formatDisplayNumber } from "~/lib/number-format";
import * as s from "./exchange.css";

/** Time of day in UTC (the same text on the server and in the browser). */
export function timeOfDay(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/** The market's latest trades, newest first; the colour and the word say who took the price. */
export function RecentTrades({ trades, base, quote }: { trades: PublicTrade[]; base: string; quote: string }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="trades-title">
      <h2 id="trades-title" className={s.panelTitle}>
        {t("exchange.recent_trades")}
      </h2>
      {trades.length ? (
        <table className={s.table}>
          <thead>
            <tr>
              <th scope="col">{t("exchange.price_unit", { unit: quote })}</th>
              <th scope="col">{t("exchange.amount_unit", { unit: base })}</th>
              <th scope="col">{t("exchange.time_utc")}</th>
            </tr>
          </thead>
          <tbody data-testid="trades">
            {trades.slice(0, 30).map((trade, i) => (
              <tr key={`${trade.time}-${i}`}>
                <td className={trade.side === "buy" ? s.tone.up : s.tone.down}>
                  {formatDisplayNumber(trade.price, { abbreviate: false })}
                  <span className="visually-hidden"> {t(trade.side === "buy" ? "exchange.taker_buy" : "exchange.taker_sell")}</span>
                </td>
                <td>{formatDisplayNumber(trade.quantity)}</td>
                <td>{timeOfDay(trade.time)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className={s.empty}>{t("exchange.no_trades")}</p>
      )}
    </section>
  );
}
