import { compareDecimal } from "#protocol/decimal";
import type { MarketItem } from "#protocol/market";
import { formatPercentChange } from "./number-format";
import { tradingPath } from "./trading-path";

export { tradingPath };

/**
 * The market list's view (spec §2 /market/main): which tab, the search text, the sort. It lives in
 * the URL (`?tab=&q=&sort=&dir=`) so that every view works without JavaScript and can be linked;
 * the server rendering and the live island apply the same `viewMarkets` to their rows.
 */
export const MARKET_TABS = ["spot", "favourites", "contract"] as const;
export type MarketTab = (typeof MARKET_TABS)[number];
export const SORT_KEYS = ["price", "change", "volume"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = "asc" | "desc";

export interface MarketQuery {
  tab: MarketTab;
  q: string;
  sort: SortKey | null;
  dir: SortDir;
}

export const SEARCH_MAX_LENGTH = 40;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;

/** Reads the view from a URL's query; anything unknown falls back to the default view. */
export function parseMarketQuery(params: URLSearchParams): MarketQuery {
  const sort = oneOf(SORT_KEYS, params.get("sort"));
  return {
    tab: oneOf(MARKET_TABS, params.get("tab")) ?? "spot",
    q: (params.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH),
    sort,
    dir: sort && params.get("dir") === "asc" ? "asc" : "desc",
  };
}

/** The query string of a view (leading `?`), leaving out what is default. */
export function marketSearch(query: MarketQuery): string {
  const params = new URLSearchParams();
  if (query.tab !== "spot") params.set("tab", query.tab);
  if (query.q) params.set("q", query.q);
  if (query.sort) {
    params.set("sort", query.sort);
    params.set("dir", query.dir);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The view after choosing a column: the same column flips its direction, a new one starts high to low. */
export function sortedBy(query: MarketQuery, key: SortKey): MarketQuery {
  const dir: SortDir = query.sort === key && query.dir === "desc" ? "asc" : "desc";
  return { ...query, sort: key, dir };
}

/** Spec §5 "Search": the typed text, case-insensitively, inside the coin or the symbol name (BTC_USDT reads as BTC/USDT). */
export function matchesSearch(item: MarketItem, q: string): boolean {
  if (!q) return true;
  // toLowerCase is locale-independent (no Turkish dotless i surprises).
  const needle = q.toLowerCase().replace("_", "/");
  return item.coin_symbol.toLowerCase().includes(needle) || item.symbolName.toLowerCase().includes(needle);
}

const SORT_FIELDS: Record<SortKey, (item: MarketItem) => string | null> = {
  price: (item) => item.close,
  change: (item) => item.zdf,
  // Turnover in the quote currency: comparable across markets, unlike base-coin volume.
  volume: (item) => item.amount,
};

/** Sorts exactly (decimal strings); markets without a value (not traded yet) come last either way; ties keep their order. */
export function sortMarkets(items: readonly MarketItem[], sort: SortKey | null, dir: SortDir): MarketItem[] {
  if (!sort) return [...items];
  const field = SORT_FIELDS[sort];
  const sign = dir === "asc" ? 1 : -1;
  return items
    .map((item, index) => ({ item, index, value: field(item) }))
    .sort((a, b) => {
      if (a.value === null || b.value === null) return a.value === b.value ? a.index - b.index : a.value === null ? 1 : -1;
      return sign * compareDecimal(a.value, b.value) || a.index - b.index;
    })
    .map((entry) => entry.item);
}

/** The rows a view shows: the tab's markets (favourites only on that tab), searched, then sorted. */
export function viewMarkets(items: readonly MarketItem[], query: MarketQuery, favourites: readonly string[] | null): MarketItem[] {
  const favourite = new Set(favourites ?? []);
  const shown = items.filter((item) => (query.tab !== "favourites" || favourite.has(item.symbolName)) && matchesSearch(item, query.q));
  return sortMarkets(shown, query.sort, query.dir);
}

/** How a 24 h change reads: direction (also in words by its sign, not only by colour) and text. */
export function describeChange(zdf: string | null): { direction: "up" | "down" | "flat" | null; text: string } {
  if (zdf === null) return { direction: null, text: "--" };
  const text = formatPercentChange(zdf);
  if (!/[1-9]/.test(text)) return { direction: "flat", text };
  return { direction: text.startsWith("-") ? "down" : "up", text };
}
