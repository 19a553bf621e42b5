import type { MetaFunction, ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import type { SpotOrderView } from "#protocol/endpoints/order-history";
import { FIRST_DAY, LAST_DAY } from "#protocol/fields";
import { OrderTable, TradeTable } from "~/components/entrust-tables";
import { PageErrorBoundary } from "~/components/error-page";
import {
  cancelOrderSchema,
  ENTRUST_TABS,
  entrustSearch,
  isFiltered,
  parseEntrustQuery,
  type EntrustFilter,
  type EntrustTab,
  type FilterErrors,
  type FilterValues,
} from "~/lib/forms/entrust";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { loadSpotOrders } from "~/services/spot/order-history.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import * as center from "~/styles/account-center.css";
import * as s from "~/styles/account-entrust.css";
import { withMember } from "~/services/engine/route.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "entrust.spot_title") }];

const BASE = "/account/entrust/spot";

/** Spot orders: open orders, order history or trade details, filtered by a GET form. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine, request }) => {
    const { filter, errors, values } = parseEntrustQuery(new URL(request.url).searchParams);
    if (errors) {
      // A bad filter is answered on the page, next to its field, without asking the engine for rows.
      return { filter, errors, values, symbols: await engine.spot.orderSymbols(), rows: null };
    }
    const { symbols, rows } = await loadSpotOrders(engine, filter);
    return { filter, errors: null as FilterErrors | null, values, symbols, rows };
  });
}

/** Cancels one open order, then shows the same page again with a toast (with or without JavaScript). */
export function action(args: ActionFunctionArgs) {
  return withMember(args, async ({ engine, request }) => {
    const url = new URL(request.url);
    url.searchParams.delete("index");
    const back = `${BASE}${url.search}`;
    const submission = cancelOrderSchema.safeParse(Object.fromEntries(await request.formData()));
    if (!submission.success) return redirectWithToast(request, back, { type: "error", key: "errors.unknown" });
    const done = await engine.attempt(() => engine.spot.cancel(submission.data.orderId));
    return redirectWithToast(request, back, done.ok ? { type: "success", key: "entrust.cancelled" } : { type: "error", message: done.message ?? undefined });
  });
}

export default function SpotOrdersPage() {
  const { t } = useTranslation();
  const { filter, errors, values, symbols, rows } = useLoaderData<typeof loader>();
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
          {t("entrust.spot_title")}
        </h1>
        {rows && rows.page.total > 0 ? (
          // A plain link to a download: works without JavaScript.
          <a href={`${BASE}/export${entrustSearch(filter, { page: 1 })}`} className={s.ghostButton} download>
            {t("entrust.export")}
          </a>
        ) : null}
      </div>
      <nav className={s.tabs} aria-label={t("entrust.tabs_label")}>
        {ENTRUST_TABS.map((tab) => (
          <Link key={tab} to={`${BASE}${entrustSearch(filter, { tab, page: 1 })}`} className={s.tab} aria-current={filter.tab === tab ? "page" : undefined}>
            {t(`entrust.tabs.${tab}`)}
          </Link>
        ))}
      </nav>
      {/* Keyed by what it shows: its fields are uncontrolled, so a link (a tab, Reset) must remount them to show the new values. */}
      <FilterForm key={`${filter.tab}:${JSON.stringify(values)}`} tab={filter.tab} values={values} errors={errors} symbols={symbols} />
      {rows === null ? null : rows.kind === "trades" ? (
        <TradeTable trades={rows.page.records} label={tabLabel} empty={<EmptyState filter={filter} />} pager={pagerOf(rows.page)} />
      ) : (
        <OrderTable
          orders={rows.page.records}
          kind={filter.tab === "open" ? "open" : "history"}
          label={tabLabel}
          actions={(order) => <OrderActions order={order} />}
          empty={<EmptyState filter={filter} />}
          pager={pagerOf(rows.page)}
        />
      )}
    </section>
  );
}

function FilterForm({ tab, values, errors, symbols }: { tab: EntrustTab; values: FilterValues; errors: FilterErrors | null; symbols: string[] }) {
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
        <Link to={`${BASE}${entrustSearch({ tab })}`} className={s.ghostButton}>
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
      <Link to={`${BASE}/${encodeURIComponent(order.orderId)}`} className={s.link} aria-label={t("entrust.details_named", name)}>
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

function EmptyState({ filter }: { filter: EntrustFilter }) {
  const { t } = useTranslation();
  const filtered = isFiltered(filter);
  return (
    <>
      <p>{filtered ? t("entrust.empty.filtered") : t(`entrust.empty.${filter.tab}`)}</p>
      {filtered ? (
        <Link to={`${BASE}${entrustSearch({ tab: filter.tab })}`} className={s.link}>
          {t("entrust.reset")}
        </Link>
      ) : null}
    </>
  );
}

export const ErrorBoundary = PageErrorBoundary;
