import type { MetaFunction, ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type FocusEvent, type MutableRefObject, type RefObject } from "react";
import { useTranslation } from "~/lib/i18n";
import type { MarketItem } from "#protocol/market";
import { topics } from "#protocol/realtime";
import { MarketTable, type MarketTableProps } from "~/components/market-table";
import { marketSearch, SEARCH_MAX_LENGTH, sortedBy, tradingPath, viewMarkets, type MarketQuery, type MarketTab } from "~/lib/market-list";
import { mergeTickers } from "~/lib/market-live";
import { useTopic } from "~/lib/realtime";
import { pageTitle, useShell } from "~/lib/use-shell";
import { withEngine, withMember } from "~/services/engine/route.server";
import { loadMarketList, toggleFavourite } from "~/services/spot/market-list.server";
import * as s from "./main.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "market_list.title") }];

/** Spec §2 /market/main: every market with its 24 h ticker; tab, search and sort live in the URL. */
export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, ({ engine }) => loadMarketList(engine));
}

/** The star of a row: `intent` favourite or unfavourite with the `symbol`. */
export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => toggleFavourite(engine));
}

const PATH = "/market/main";

export default function MarketListPage() {
  const { t } = useTranslation();
  const page = useLoaderData<typeof loader>();
  const { query, favourites, hasContracts, spotCount } = page;
  const { currency, member } = useShell();
  const items = useLiveMarkets(page.items);
  const rows = useMemo(() => viewMarkets(items, query, favourites), [items, query, favourites]);
  const here = `${PATH}${marketSearch(query)}`;
  const steady = useSteadyOrder(rows, `${here}|${favourites?.join(",") ?? ""}`);
  const favouriteSet = useMemo(() => new Set(favourites ?? []), [favourites]);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const tableArea = useRef<HTMLDivElement>(null);
  useKeepFocus(steady.rows, tableArea, titleRef, steady.lastFocused);
  const clearHref = `${PATH}${marketSearch({ ...query, q: "" })}`;

  const tabs: Array<{ tab: MarketTab; label: string; count?: number }> = [{ tab: "spot", label: t("market_list.tab_spot"), count: spotCount }];
  if (member) tabs.push({ tab: "favourites", label: t("market_list.tab_favourites"), count: favourites?.length ?? 0 });
  if (hasContracts) tabs.push({ tab: "contract", label: t("market_list.tab_contract") });

  const lead: MarketTableProps["lead"] = {
    label: t("market_list.favourite_column"),
    cell: (item) =>
      member ? (
        <FavouriteStar symbol={item.symbolName} on={favouriteSet.has(item.symbolName)} action={here} />
      ) : (
        <Link
          to={`/user/login?redirectTo=${encodeURIComponent(here)}`}
          className={s.star}
          aria-label={t("market_list.favourite_login", { symbol: item.symbolName })}
        >
          <span aria-hidden="true">☆</span>
        </Link>
      ),
  };

  return (
    <div className={s.page}>
      <div className={s.head}>
        <div>
          <h1 className={s.title} ref={titleRef} tabIndex={-1}>
            {t("market_list.title")}
          </h1>
          <p className={s.subtitle}>{t("market_list.subtitle", { currency: currency.quote })}</p>
        </div>
        <Form method="get" action={PATH} role="search" className={s.search}>
          {query.tab !== "spot" ? <input type="hidden" name="tab" value={query.tab} /> : null}
          <label htmlFor="market-search" className="visually-hidden">
            {t("market_list.search_label")}
          </label>
          <input
            key={query.q}
            id="market-search"
            type="search"
            name="q"
            defaultValue={query.q}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder={t("market_list.search_placeholder")}
            autoComplete="off"
            className={s.searchInput}
          />
          <button type="submit" className={s.searchButton}>
            {t("market_list.search_submit")}
          </button>
          {query.sort ? (
            <>
              <input type="hidden" name="sort" value={query.sort} />
              <input type="hidden" name="dir" value={query.dir} />
            </>
          ) : null}
        </Form>
      </div>

      <div className={s.bar}>
        <nav aria-label={t("market_list.tabs_label")}>
          <ul className={s.tabs}>
            {tabs.map(({ tab, label, count }) => (
              <li key={tab}>
                <Link to={`${PATH}${marketSearch({ ...query, tab })}`} className={s.tab} aria-current={tab === query.tab ? "page" : undefined}>
                  {label}
                  {count !== undefined ? <span className={s.tabCount}> ({count})</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className={s.summary} aria-live="polite">
          {query.q ? (
            <>
              {t("market_list.results", { q: query.q, count: rows.length })}
              <Link to={clearHref} className={s.clearLink}>
                {t("market_list.search_clear")}
              </Link>
            </>
          ) : null}
        </p>
      </div>

      <div ref={tableArea}>
        <MarketTable
          items={steady.rows}
          currency={currency}
          caption={t("market_list.caption", { currency: currency.quote })}
          empty={<EmptyState query={query} clearHref={clearHref} />}
          sorting={{ sort: query.sort, dir: query.dir, href: (key) => `${PATH}${marketSearch(sortedBy(query, key))}` }}
          rowHref={tradingPath}
          lead={query.tab === "contract" ? undefined : lead}
          bodyEvents={steady.bodyEvents}
        />
      </div>
    </div>
  );
}

function EmptyState({ query, clearHref }: { query: MarketQuery; clearHref: string }) {
  const { t } = useTranslation();
  if (query.q) {
    return (
      <>
        <p className={s.emptyText}>{t("market_list.empty_search", { q: query.q })}</p>
        <Link to={clearHref} className={s.emptyLink}>
          {t("market_list.search_clear")}
        </Link>
      </>
    );
  }
  if (query.tab === "favourites") {
    return (
      <>
        <p className={s.emptyText}>{t("market_list.empty_favourites")}</p>
        <Link to={PATH} className={s.emptyLink}>
          {t("market_list.browse_spot")}
        </Link>
      </>
    );
  }
  return <p className={s.emptyText}>{t("market_list.empty_markets")}</p>;
}

/**
 * A member's star: a real form (POST, works without JavaScript); with JavaScript it posts in the
 * background and shows the new state at once.
 */
function FavouriteStar({ symbol, on, action }: { symbol: string; on: boolean; action: string }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get("intent");
  const shownOn = typeof pending === "string" ? pending === "favourite" : on;
  return (
    <fetcher.Form method="post" action={action} preventScrollReset className={s.starForm}>
      <input type="hidden" name="symbol" value={symbol} />
      <button
        type="submit"
        name="intent"
        value={shownOn ? "unfavourite" : "favourite"}
        className={shownOn ? s.starOn : s.star}
        aria-label={t(shownOn ? "market_list.favourite_remove" : "market_list.favourite_add", { symbol })}
      >
        <span aria-hidden="true">{shownOn ? "★" : "☆"}</span>
      </button>
    </fetcher.Form>
  );
}

/**
 * The live island: the loader's rows until the first push, then each `all_symbol_detail` push
 * (MarketItem[]) merged in. A new loader snapshot (another view, a favourite changed) starts over;
 * after a reconnect the snapshot is reloaded, since pushes may have been missed.
 */
function useLiveMarkets(snapshot: MarketItem[]): MarketItem[] {
  const [live, setLive] = useState({ snapshot, items: snapshot });
  const revalidator = useRevalidator();
  useTopic(
    topics.allSymbolDetail,
    (pushed) =>
      setLive((current) => {
        const items = mergeTickers(current.items, pushed);
        return items === current.items ? current : { ...current, items };
      }),
    { onResync: () => revalidator.revalidate() },
  );
  if (live.snapshot !== snapshot) {
    setLive({ snapshot, items: snapshot });
    return snapshot;
  }
  return live.items;
}

/**
 * While keyboard focus or the pointer is in the rows, live pushes update the numbers but do not
 * reorder the rows, so the focused row never moves under the keyboard (or the row under the
 * pointer under a click). A new view (search, sort, tab, favourites) always applies at once.
 */
function useSteadyOrder(rows: MarketItem[], viewKey: string) {
  const [held, setHeld] = useState({ focus: false, pointer: false });
  const shown = useRef<{ key: string; symbols: string[] } | null>(null);
  const lastFocused = useRef<{ element: HTMLElement; index: number } | null>(null);
  let result = rows;
  const previous = shown.current;
  if ((held.focus || held.pointer) && previous && previous.key === viewKey) {
    const position = new Map(previous.symbols.map((symbol, index) => [symbol, index]));
    const at = (item: MarketItem) => position.get(item.symbolName) ?? Number.MAX_SAFE_INTEGER;
    result = [...rows].sort((a, b) => at(a) - at(b));
  }
  useEffect(() => {
    shown.current = { key: viewKey, symbols: result.map((row) => row.symbolName) };
  });
  const bodyEvents: NonNullable<MarketTableProps["bodyEvents"]> = {
    onFocus: (event: FocusEvent<HTMLTableSectionElement>) => {
      const row = (event.target as HTMLElement).closest("tr");
      const index = row ? Array.prototype.indexOf.call(event.currentTarget.rows, row) : -1;
      lastFocused.current = { element: event.target as HTMLElement, index };
      setHeld((h) => (h.focus ? h : { ...h, focus: true }));
    },
    onBlur: (event: FocusEvent<HTMLTableSectionElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHeld((h) => (h.focus ? { ...h, focus: false } : h));
    },
    onPointerEnter: () => setHeld((h) => ({ ...h, pointer: true })),
    onPointerLeave: () => setHeld((h) => ({ ...h, pointer: false })),
  };
  return { rows: result, bodyEvents, lastFocused };
}

/**
 * When the focused control's row goes away (a favourite removed on the favourites tab), focus
 * moves to the same place in the list (that row's successor, else the last row, else the page
 * title) instead of falling back to the top of the page.
 */
function useKeepFocus(
  rows: MarketItem[],
  area: RefObject<HTMLElement>,
  fallback: RefObject<HTMLElement>,
  lastFocused: MutableRefObject<{ element: HTMLElement; index: number } | null>,
) {
  useEffect(() => {
    const last = lastFocused.current;
    if (!last || last.element.isConnected) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    lastFocused.current = null;
    const row = area.current?.querySelector("tbody")?.rows[Math.min(last.index, rows.length - 1)];
    const target = rows.length ? row?.querySelector<HTMLElement>("button, a[href]") : null;
    (target ?? fallback.current)?.focus();
  }, [rows, area, fallback, lastFocused]);
}
