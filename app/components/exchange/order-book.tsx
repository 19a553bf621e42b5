import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { BOOK_GROUPS, groupLevels, groupStep, type BookGroup } from "~/lib/book-grouping";
import type { Depth } from "#protocol/endpoints/market-data";
import { fromMinor, multiplyDecimal, toMinor } from "#protocol/decimal";
import { clsx } from "~/lib/clsx";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "./exchange.css";

interface Props {
  depth: Depth;
  base: string;
  quote: string;
  amountScale: number;
  priceScale: number;
  last: string | null;
  lastTone: "up" | "down" | "flat";
  /** Ticks gathered in one row (`?group=`), and the page's link for each grouping. */
  group: BookGroup;
  groupHref: (group: BookGroup) => string;
  /** Rows shown per side. */
  rows?: number;
  /** The third column: each level's value (price × amount; spot), or the amount up to it (contracts, whose amounts are contracts). */
  total?: "value" | "cumulative";
}

/**
 * The order book: asks above (best at the bottom), the last price, bids below (best on top).
 * Each row's background bar shows the cumulative amount up to that level, as a share of the
 * larger side's visible total (exact: computed in minor units). Prices and totals show exactly the
 * market's price decimals, amounts its amount decimals, in the member's language: every row has
 * the same decimals, so the columns line up.
 */
export function OrderBook({ depth, base, quote, amountScale, priceScale, last, lastTone, group, groupHref, rows = 12, total = "value" }: Props) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const asks = groupLevels(depth.asks, "ask", group, priceScale, amountScale).slice(0, rows);
  const bids = groupLevels(depth.bids, "bid", group, priceScale, amountScale).slice(0, rows);
  const cumulative = (levels: Array<[string, string]>) => {
    let sum = 0n;
    return levels.map(([, amount]) => (sum += toMinor(amount, amountScale, "down")));
  };
  const askCum = cumulative(asks);
  const bidCum = cumulative(bids);
  const max = [askCum.at(-1) ?? 0n, bidCum.at(-1) ?? 0n].reduce((a, b) => (a > b ? a : b), 1n);
  const share = (cum: bigint) => `${fromMinor((cum * 10_000n) / max, 2)}%`;
  const row = (side: "ask" | "bid", [price, amount]: [string, string], cum: bigint) => (
    <tr key={`${side}${price}`} className={clsx(s.bookRow, side === "ask" ? s.depthAsk : s.depthBid)} style={{ "--depth": share(cum) } as React.CSSProperties}>
      <td className={side === "ask" ? s.tone.down : s.tone.up}>{nf.fixed(price, priceScale)}</td>
      <td>{nf.fixed(amount, amountScale)}</td>
      <td>{total === "value" ? nf.fixed(multiplyDecimal(price, amount, priceScale), priceScale) : nf.fixed(fromMinor(cum, amountScale), amountScale)}</td>
    </tr>
  );
  const head = (
    <thead>
      <tr>
        <th scope="col">{t("exchange.price_unit", { unit: quote })}</th>
        <th scope="col">{t("exchange.amount_unit", { unit: base })}</th>
        <th scope="col">{t("exchange.total")}</th>
      </tr>
    </thead>
  );
  return (
    <section aria-labelledby="book-title">
      <div className={s.bookHead}>
        <h2 id="book-title" className={s.bookTitle}>
          {t("exchange.order_book")}
        </h2>
        {/* Links, not a script: the grouping works without JavaScript and is kept in the URL. */}
        <nav className={s.groupTabs} aria-label={t("exchange.book_grouping", { unit: quote })}>
          {BOOK_GROUPS.map((g) => (
            <Link key={g} to={groupHref(g)} className={s.groupTab} aria-current={g === group ? "true" : undefined} preventScrollReset replace>
              {nf.display(groupStep(priceScale, g), { abbreviate: false })}
            </Link>
          ))}
        </nav>
      </div>
      <table className={s.table} aria-label={t("exchange.asks")}>
        {head}
        <tbody data-testid="asks">
          {asks.length
            ? asks
                .map((level, i) => ({ level, cum: askCum[i]! }))
                .reverse()
                .map(({ level, cum }) => row("ask", level, cum))
            : null}
        </tbody>
      </table>
      {!asks.length && <p className={s.empty}>{t("exchange.no_asks")}</p>}
      <div className={s.mid}>
        <span className={clsx(s.midPrice, s.tone[lastTone])} data-testid="book-last">
          {nf.fixed(last, priceScale)}
        </span>
        <span className={s.statLabel}>{t("exchange.last_price")}</span>
      </div>
      <table className={s.table} aria-label={t("exchange.bids")}>
        <thead className="visually-hidden">
          <tr>
            <th scope="col">{t("exchange.price_unit", { unit: quote })}</th>
            <th scope="col">{t("exchange.amount_unit", { unit: base })}</th>
            <th scope="col">{t("exchange.total")}</th>
          </tr>
        </thead>
        <tbody data-testid="bids">{bids.map((level, i) => row("bid", level, bidCum[i]!))}</tbody>
      </table>
      {!bids.length && <p className={s.empty}>{t("exchange.no_bids")}</p>}
    </section>
  );
}
