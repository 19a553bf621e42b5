import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import type { MarginRecordView } from "#protocol/endpoints/margin";
import type { SpotOrderView, SpotTradeView } from "#protocol/endpoints/order-history";
import { FIRST_DAY, LAST_DAY } from "#protocol/fields";
import { MarginRecordTable, OrderTable, TradeTable } from "~/components/entrust-tables";
import {
  entrustSearch,
  isFiltered,
  ORDERS_PAGE,
  type EntrustFilter,
  type EntrustTab,
  type FilterErrors,
  type FilterValues,
  type OrdersAccount,
} from "~/lib/forms/entrust";
import { useNumberFormat } from "~/lib/use-number-format";
import * as center from "~/styles/account-center.css";
import * as s from "~/styles/account-entrust.css";

interface RowsPage<Row> {
  records: Row[];
  total: number;
  current: number;
  pages: number;
}

/** What `ordersPageLoader` answers. */
export interface OrdersPageData {
  account: OrdersAccount;
  filter: EntrustFilter;
  errors: FilterErrors | null;
  values: FilterValues;
  symbols: string[];
  rows:
    | null
    | { kind: "orders"; page: RowsPage<SpotOrderView> }
    | { kind: "trades"; page: RowsPage<SpotTradeView> }
    | { kind: "records"; page: RowsPage<MarginRecordView> };
}

/**
 * An orders page of the orders area (spot, margin-all, margin-fixed; the route passes its loader's
 * data from `ordersPageLoader`): tabs, the filter as a GET form, the table of the tab with paging,
 * a CSV link, and a cancel button on each open order (all of it works without JavaScript).
 */
export function OrdersPage({ data }: { data: OrdersPageData }) {
  const { t } = useTranslation();
  const { account, filter, errors, values, symbols, rows } = data;
  const { base: BASE, title, tabs } = ORDERS_PAGE[account];
  const tabLabel = t(`entrust.tabs.${filter.tab}`);
  const pagerOf = ({ current, pages, total }: { current: number; pages: number; total: number }) => ({
    current,
    pages,
    total,
    hrefFor: (page: number) => `${BASE}${entrustSearch(filter, { page })}`,
  });
  return (
    <section className={center.card} aria-labelledby="entrust-title">
      <div className={s.head}>
        <h1 id="entrust-title" className={s.title}>
          {t(title)}
        </h1>
        {rows && rows.page.total > 0 ? (
          // A plain link to a download: works without JavaScript.
          <a href={`${BASE}/export${entrustSearch(filter, { page: 1 })}`} className={s.ghostButton} download>
            {t("entrust.export")}
          </a>
        ) : null}
      </div>
      <nav className={s.tabs} aria-label={t("entrust.tabs_label")}>
        {tabs.map((tab) => (
          <Link key={tab} to={`${BASE}${entrustSearch(filter, { tab, page: 1 })}`} className={s.tab} aria-current={filter.tab === tab ? "page" : undefined}>
            {t(`entrust.tabs.${tab}`)}
          </Link>
        ))}
      </nav>
      {/* Keyed by what it shows: its fields are uncontrolled, so a link (a tab, Reset) must remount them to show the new values. */}
      <FilterForm
        key={`${filter.tab}:${JSON.stringify(values)}`}
        base={BASE}
        tab={filter.tab}
        values={values}
        errors={errors}
        symbols={account === "all" && filter.tab === "records" ? null : symbols}
      />
      {rows === null ? null : rows.kind === "trades" ? (
        <TradeTable trades={rows.page.records} label={tabLabel} empty={<EmptyState base={BASE} filter={filter} />} pager={pagerOf(rows.page)} />
      ) : rows.kind === "records" ? (
        <MarginRecordTable
          records={rows.page.records}
          isolated={account === "fixed"}
          label={tabLabel}
          empty={<EmptyState base={BASE} filter={filter} />}
          pager={pagerOf(rows.page)}
        />
      ) : (
        <OrderTable
          orders={rows.page.records}
          kind={filter.tab === "open" ? "open" : "history"}
          label={tabLabel}
          actions={(order) => <OrderActions order={order} />}
          empty={<EmptyState base={BASE} filter={filter} />}
          pager={pagerOf(rows.page)}
        />
      )}
    </section>
  );
}

/** The filter; a margin account's records have no side, and the cross account's no pair (`symbols` null). */
function FilterForm({
  base,
  tab,
  values,
  errors,
  symbols,
}: {
  base: string;
  tab: EntrustTab;
  values: FilterValues;
  errors: FilterErrors | null;
  symbols: string[] | null;
}) {
  const { t } = useTranslation();
  const errorOf = (field: keyof FilterErrors) => errors?.[field];
  const described = (field: keyof FilterErrors) => (errorOf(field) ? `filter-${field}-error` : undefined);
  const fieldErrors = (field: keyof FilterErrors) =>
    errorOf(field) ? (
      <ul id={`filter-${field}-error`} className={s.fieldError}>
        {errorOf(field)!.map((e) => (
          <li key={e}>{t(e)}</li>
        ))}
      </ul>
    ) : null;
  return (
    <Form method="get" className={s.filter} aria-label={t("entrust.filter_label")}>
      <input type="hidden" name="tab" value={tab} />
      {symbols === null ? null : (
        <div className={s.filterField}>
          <label htmlFor="filter-symbol" className={s.filterLabel}>
            {t("entrust.col.pair")}
          </label>
          <select
            id="filter-symbol"
            name="symbol"
            defaultValue={values.symbol ?? ""}
            className={s.control}
            aria-invalid={errorOf("symbol") ? true : undefined}
            aria-describedby={described("symbol")}
          >
            <option value="">{t("entrust.all_pairs")}</option>
            {symbols.map((symbol) => (
              <option key={symbol} value={symbol.replace("/", "_")}>
                {symbol}
              </option>
            ))}
          </select>
          {fieldErrors("symbol")}
        </div>
      )}
      {tab === "records" ? null : (
        <div className={s.filterField}>
          <label htmlFor="filter-side" className={s.filterLabel}>
            {t("entrust.col.side")}
          </label>
          <select
            id="filter-side"
            name="side"
            defaultValue={values.side ?? ""}
            className={s.control}
            aria-invalid={errorOf("side") ? true : undefined}
            aria-describedby={described("side")}
          >
            <option value="">{t("entrust.all_sides")}</option>
            <option value="buy">{t("entrust.side.buy")}</option>
            <option value="sell">{t("entrust.side.sell")}</option>
          </select>
          {fieldErrors("side")}
        </div>
      )}
      <div className={s.filterField}>
        <label htmlFor="filter-from" className={s.filterLabel}>
          {t("entrust.from")}
        </label>
        <input
          id="filter-from"
          name="from"
          type="date"
          min={FIRST_DAY}
          max={LAST_DAY}
          defaultValue={values.from ?? ""}
          className={s.control}
          aria-invalid={errorOf("from") ? true : undefined}
          aria-describedby={described("from")}
        />
        {fieldErrors("from")}
      </div>
      <div className={s.filterField}>
        <label htmlFor="filter-to" className={s.filterLabel}>
          {t("entrust.to")}
        </label>
        <input
          id="filter-to"
          name="to"
          type="date"
          min={FIRST_DAY}
          max={LAST_DAY}
          defaultValue={values.to ?? ""}
          className={s.control}
          aria-invalid={errorOf("to") ? true : undefined}
          aria-describedby={described("to")}
        />
        {fieldErrors("to")}
      </div>
      <div className={s.filterActions}>
        <button type="submit" className={s.primaryButton}>
          {t("entrust.search")}
        </button>
        <Link to={`${base}${entrustSearch({ tab })}`} className={s.ghostButton}>
          {t("entrust.reset")}
        </Link>
      </div>
    </Form>
  );
}

function OrderActions({ order }: { order: SpotOrderView }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const nf = useNumberFormat();
  const cancelling = navigation.state !== "idle" && navigation.formData?.get("orderId") === order.orderId;
  const name = {
    side: t(`entrust.side.${order.side}`),
    symbol: order.symbol,
    price: order.price === null ? t("entrust.market_price") : nf.display(order.price),
  };
  return (
    <>
      <Link to={`/account/entrust/spot/${encodeURIComponent(order.orderId)}`} className={s.link} aria-label={t("entrust.details_named", name)}>
        {t("entrust.details")}
      </Link>
      {order.status === "filled" || order.status === "cancelled" ? null : (
        <Form method="post" replace>
          <input type="hidden" name="orderId" value={order.orderId} />
          <button
            type="submit"
            name="intent"
            value="cancel"
            className={s.smallButton}
            disabled={cancelling}
            aria-busy={cancelling || undefined}
            aria-label={t("entrust.cancel_named", name)}
          >
            {t("entrust.cancel")}
          </button>
        </Form>
      )}
    </>
  );
}

function EmptyState({ base, filter }: { base: string; filter: EntrustFilter }) {
  const { t } = useTranslation();
  const filtered = isFiltered(filter);
  return (
    <>
      <p>{filtered ? t("entrust.empty.filtered") : t(`entrust.empty.${filter.tab}`)}</p>
      {filtered ? (
        <Link to={`${base}${entrustSearch({ tab: filter.tab })}`} className={s.link}>
          {t("entrust.reset")}
        </Link>
      ) : null}
    </>
  );
}
