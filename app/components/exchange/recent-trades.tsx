import { useTranslation } from "~/lib/i18n";
import type { PublicTrade } from "#protocol/endpoints/market-data";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "./exchange.css";

/** Time of day in UTC (the same text on the server and in the browser). */
export function timeOfDay(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

interface Props {
  trades: PublicTrade[];
  base: string;
  quote: string;
  /** The market's price decimals (`coin_coin_scale`): every price shows exactly these. */
  priceScale: number;
  /** The market's amount decimals (`base_coin_scale`): every amount shows exactly these. */
  amountScale: number;
}

/**
 * The market's latest trades, newest first; the colour and the word say who took the price.
 * Prices and amounts keep the market's decimals, in the member's language, so the columns line up.
 */
export function RecentTrades({ trades, base, quote, priceScale, amountScale }: Props) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
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
                  {nf.fixed(trade.price, priceScale)}
                  <span className="visually-hidden"> {t(trade.side === "buy" ? "exchange.taker_buy" : "exchange.taker_sell")}</span>
                </td>
                <td>{nf.fixed(trade.quantity, amountScale)}</td>
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
