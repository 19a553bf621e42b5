import type { SearchRow } from "#protocol/endpoints/search";
import { toDisplayMoney } from "~/lib/display-currency";
import { describeChange } from "~/lib/market-list";
import { useNumberFormat } from "~/lib/use-number-format";
import { useShell } from "~/lib/use-shell";
import * as mt from "../market-table.css";
import * as s from "./search-row.css";

/**
 * The inside of one search result (the header panel's option, the search page's link): pair and
 * coin name, last price (a USDT price in the display currency, as the market table shows it) and
 * the 24 h change with its sign and an arrow, not only a colour.
 */
export function SearchRowContent({ row }: { row: SearchRow }) {
  const nf = useNumberFormat();
  const { currency } = useShell();
  const change = describeChange(row.change);
  const price = row.quote === "USDT" ? toDisplayMoney(row.price, currency, nf.marks) : row.price === null ? "--" : `${nf.display(row.price)} ${row.quote}`;
  return (
    <>
      <span className={s.coin}>
        <span className={s.letter} aria-hidden="true">
          {row.base.slice(0, 1)}
        </span>
        <span className={s.names}>
          <span className={s.pair}>
            {row.base}
            <span className={mt.quote}>/{row.quote}</span>
          </span>
          <span className={s.name}>{row.name}</span>
        </span>
      </span>
      <span className={s.price}>{price}</span>
      <span className={`${s.change} ${mt.change[change.direction ?? "none"]}`}>
        {change.direction === "up" || change.direction === "down" ? (
          <span className={mt.arrow} aria-hidden="true">
            {change.direction === "up" ? "▲" : "▼"}
          </span>
        ) : null}
        {nf.mark(change.text)}
      </span>
    </>
  );
}
