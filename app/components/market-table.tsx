import { Link } from "@remix-run/react";
import type { FocusEventHandler, PointerEventHandler, ReactNode } from "react";
import { useTranslation } from "~/lib/i18n";
import type { MarketItem } from "#protocol/market";
import { toDisplayMoney } from "~/lib/display-currency";
import { describeChange, type SortDir, type SortKey } from "~/lib/market-list";
import type { DisplayCurrency } from "~/lib/shell";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "./market-table.css";

export interface MarketTableProps {
  items: readonly MarketItem[];
  currency: DisplayCurrency;
  /** Read by screen readers before the table. */
  caption: string;
  /** What the single row says when there are no rows. */
  empty: ReactNode;
  /** Sortable column headers: the current sort and the link of each column (works without JavaScript). */
  sorting?: { sort: SortKey | null; dir: SortDir; href: (key: SortKey) => string };
  /** Where each row leads (its pair's link covers the row). */
  rowHref?: (item: MarketItem) => string;
  /** A first column (the favourite star) with its header text for screen readers. */
  lead?: { label: string; cell: (item: MarketItem) => ReactNode };
  /** For a live table: when focus or the pointer is in the rows (see `useSteadyOrder`). */
  bodyEvents?: {
    onFocus: FocusEventHandler<HTMLTableSectionElement>;
    onBlur: FocusEventHandler<HTMLTableSectionElement>;
    onPointerEnter: PointerEventHandler<HTMLTableSectionElement>;
    onPointerLeave: PointerEventHandler<HTMLTableSectionElement>;
  };
}

/**
 * The market table (spec §3 "Market item") of the home page and the market list: pair, last price,
 * 24 h change, high, low and volume. Prices and volume are quoted in USDT and shown in the visitor's
 * display currency; numbers follow spec §5 in the member's language; a change shows its sign and an
 * arrow, not only a colour.
 */
export function MarketTable({ items, currency, caption, empty, sorting, rowHref, lead, bodyEvents }: MarketTableProps) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const columns = lead ? 7 : 6;
  const money = (item: MarketItem, value: string | null) =>
    item.quote_symbol === "USDT" ? toDisplayMoney(value, currency, nf.marks) : value === null ? "--" : `${nf.display(value)} ${item.quote_symbol}`;
  return (
    // A frame narrower than the table scrolls it sideways (a shadow marks the edge with more);
    // focusable so a keyboard scrolls it too, named as the table.
    <div className={s.wrap} role="region" aria-label={caption} tabIndex={0}>
      <table className={s.table}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {lead ? (
              <th scope="col" className={s.leadHead}>
                <span className="visually-hidden">{lead.label}</span>
              </th>
            ) : null}
            <th scope="col" className={s.thStart}>
              {t("market_table.pair")}
            </th>
            <SortableHead sortKey="price" sorting={sorting} label={t("market_table.last_price", { currency: currency.quote })} />
            <SortableHead sortKey="change" sorting={sorting} label={t("market_table.change")} />
            <th scope="col" className={`${s.th} ${s.wide}`}>
              {t("market_table.high")}
            </th>
            <th scope="col" className={`${s.th} ${s.wide}`}>
              {t("market_table.low")}
            </th>
            <SortableHead sortKey="volume" sorting={sorting} label={t("market_table.volume", { currency: currency.quote })} />
          </tr>
        </thead>
        <tbody {...bodyEvents}>
          {items.length === 0 ? (
            <tr>
              <td colSpan={columns} className={s.empty}>
                {empty}
              </td>
            </tr>
          ) : (
            items.map((item) => {
              const change = describeChange(item.zdf);
              const href = rowHref?.(item);
              return (
                <tr key={item.symbolName} className={href ? s.row : undefined} data-symbol={item.symbolName}>
                  {lead ? <td className={s.leadCell}>{lead.cell(item)}</td> : null}
                  <th scope="row" className={s.pairCell}>
                    <span className={s.pair}>
                      {item.avatar ? (
                        <img src={item.avatar} alt="" width="24" height="24" loading="lazy" className={s.avatar} />
                      ) : (
                        <span className={s.avatarLetter} aria-hidden="true">
                          {item.coin_symbol.slice(0, 1)}
                        </span>
                      )}
                      {href ? (
                        <Link to={href} className={s.rowLink}>
                          <PairName item={item} />
                        </Link>
                      ) : (
                        <PairName item={item} />
                      )}
                    </span>
                  </th>
                  <td className={s.td} data-column="price">
                    {money(item, item.close)}
                  </td>
                  <td className={`${s.td} ${s.change[change.direction ?? "none"]}`} data-column="change">
                    {change.direction === "up" || change.direction === "down" ? (
                      <span className={s.arrow} aria-hidden="true">
                        {change.direction === "up" ? "▲" : "▼"}
                      </span>
                    ) : null}
                    {nf.mark(change.text)}
                  </td>
                  <td className={`${s.td} ${s.wide}`}>{money(item, item.high)}</td>
                  <td className={`${s.td} ${s.wide}`}>{money(item, item.low)}</td>
                  <td className={s.td} data-column="volume">
                    {money(item, item.amount)}
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}

function PairName({ item }: { item: MarketItem }) {
  return (
    <>
      {item.coin_symbol}
      <span className={s.quote}>/{item.quote_symbol}</span>
    </>
  );
}

function SortableHead({ sortKey, label, sorting }: { sortKey: SortKey; label: string; sorting: MarketTableProps["sorting"] }) {
  const { t } = useTranslation();
  if (!sorting) {
    return (
      <th scope="col" className={s.th}>
        {label}
      </th>
    );
  }
  const active = sorting.sort === sortKey;
  const nextDir = active && sorting.dir === "desc" ? "asc" : "desc";
  return (
    <th scope="col" className={s.th} aria-sort={active ? (sorting.dir === "asc" ? "ascending" : "descending") : undefined}>
      <Link to={sorting.href(sortKey)} className={active ? s.sortLinkActive : s.sortLink} preventScrollReset>
        {label}
        <span className={s.sortMark} aria-hidden="true">
          {active ? (sorting.dir === "asc" ? "▲" : "▼") : "↕"}
        </span>
        <span className="visually-hidden"> {t(nextDir === "asc" ? "market_table.sort_asc" : "market_table.sort_desc")}</span>
      </Link>
    </th>
  );
}
