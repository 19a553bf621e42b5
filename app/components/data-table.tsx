import { Link } from "@remix-run/react";
import { useId, type ReactNode } from "react";
import { useTranslation } from "~/lib/i18n";
import * as s from "./data-table.css";

/** One column: its header, its cell for a row, and its kind (a number is right-aligned). */
export interface Column<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  kind?: "text" | "number" | "time" | "status";
  /** The label before the value when rows are cards (`reflow="cards"`); by default the header when it is a text. */
  label?: string;
  /** A column that holds a form (a fixed-layout table gives it more of the width). */
  wide?: boolean;
}

export interface PagerProps {
  current: number;
  pages: number;
  total: number;
  hrefFor: (page: number) => string;
}

interface DataTableProps<Row> {
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Columns; `false` or `null` leaves one out (e.g. a column only some rows need). */
  columns: readonly (Column<Row> | false | null | undefined)[];
  /** The table's name: a caption (hidden, the page shows its own heading) or the id of that heading. */
  name: { caption: string } | { labelledBy: string };
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode;
  /** Previous / next links under the table (links: they work without JavaScript). */
  pager?: PagerProps;
  look?: "panel" | "compact";
  /**
   * In a frame narrower than the table: `scroll` (the table scrolls sideways inside its frame,
   * with a shadow at the edge that has more) or `cards` (each row a card, a label before each
   * value; for short tables whose rows a member reads one by one: balances, devices).
   */
  reflow?: "scroll" | "cards";
  testId?: string;
}

/**
 * A table of records: named (caption or `aria-labelledby`), column headers with `scope="col"`, a
 * frame that scrolls sideways and can be focused (so it scrolls by keyboard, named as the table),
 * the empty state when there is nothing, and the pager. The frame never widens the page (WCAG
 * 1.4.10): a narrow frame scrolls with a cue at its edges, or shows the rows as cards.
 */
export function DataTable<Row>({ rows, rowKey, columns, name, empty, pager, look = "panel", reflow = "scroll", testId }: DataTableProps<Row>) {
  const captionId = useId();
  const shown = columns.filter((c): c is Column<Row> => Boolean(c));
  const labelledBy = "labelledBy" in name ? name.labelledBy : captionId;
  const th = (c: Column<Row>) => (look === "panel" ? s.th[c.kind === "number" ? "number" : "text"] : undefined);
  const td = (c: Column<Row>) => (look === "panel" ? s.td[c.kind ?? "text"] : undefined);
  const cards = reflow === "cards";
  // A card's label: a text, not read out again (the cell is still announced with its column header).
  const label = (c: Column<Row>) => (cards ? (c.label ?? (typeof c.header === "string" ? c.header : undefined)) : undefined);
  return (
    <>
      {rows.length === 0 ? (
        <div className={s.empty[look]}>{empty}</div>
      ) : (
        // Focusable: a keyboard scrolls the region sideways; named as the table.
        <div className={cards ? `${s.wrap[look]} ${s.cards}` : s.wrap[look]} tabIndex={0} role="region" aria-labelledby={labelledBy}>
          <table className={s.table[look]} aria-labelledby={"labelledBy" in name ? name.labelledBy : undefined} data-testid={testId}>
            {"caption" in name ? (
              <caption id={captionId} className="visually-hidden">
                {name.caption}
              </caption>
            ) : null}
            <thead>
              <tr>
                {shown.map((c) => (
                  <th key={c.key} scope="col" className={[th(c), c.wide ? s.wideColumn : null].filter(Boolean).join(" ") || undefined}>
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)}>
                  {shown.map((c) => (
                    <td key={c.key} className={td(c)} data-label={label(c)}>
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager ? <Pager {...pager} /> : null}
    </>
  );
}

/** Previous / next links with "page x of y"; a link, so it works without JavaScript. */
export function Pager({ current, pages, total, hrefFor }: PagerProps) {
  const { t } = useTranslation();
  if (total === 0) return null;
  return (
    <nav className={s.paging} aria-label={t("entrust.paging_label")}>
      <span className={s.pageInfo}>{t("entrust.page_of", { current, pages: Math.max(pages, 1), count: total })}</span>
      {current > 1 ? (
        <Link to={hrefFor(current - 1)} className={s.pageLink} rel="prev">
          {t("entrust.previous")}
        </Link>
      ) : (
        <span className={s.pageDisabled} aria-disabled="true">
          {t("entrust.previous")}
        </span>
      )}
      {current < pages ? (
        <Link to={hrefFor(current + 1)} className={s.pageLink} rel="next">
          {t("entrust.next")}
        </Link>
      ) : (
        <span className={s.pageDisabled} aria-disabled="true">
          {t("entrust.next")}
        </span>
      )}
    </nav>
  );
}
