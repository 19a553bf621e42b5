import type { SearchAnswer, SearchRow } from "#protocol/endpoints/search";
import { tradingPath } from "./trading-path";

export { SEARCH_MAX_LENGTH } from "#protocol/limits";
export type { SearchAnswer, SearchRow };

/**
 * The header search (spec §2 "Header search", §9): the page `/search?q=` renders the lists without
 * JavaScript, and the header's panel loads the same loader's data through a fetcher.
 */
export const SEARCH_PATH = "/search";
/** How long typing must pause before the panel asks (it runs on keystrokes). */
export const SEARCH_DEBOUNCE_MS = 150;
/** Spec §9: the loading indicator shows only when an answer takes longer than this. */
export const SEARCH_SLOW_MS = 500;

/** What `/search` answers: the text, the lists, and the text key of a refused text (the lists are then the hot list). */
export interface SearchData {
  q: string;
  error: "search.invalid" | null;
  answer: SearchAnswer;
}

/** The URL of a search (the page, or the panel's fetcher). */
export function searchHref(q: string): string {
  return q ? `${SEARCH_PATH}?q=${encodeURIComponent(q)}` : SEARCH_PATH;
}

/** The trading page of a search row (spec §2: BTC/USDT trades at /exchange/full-screen/BTC_USDT). */
export function rowTradingPath(row: Pick<SearchRow, "symbol" | "contract_type">): string {
  return tradingPath({ symbolName: row.symbol, contract_type: row.contract_type });
}

export type SearchTab = "spot" | "contract";

/**
 * What a view of the answer lists: the hot list without text; with text the tab's matches, or
 * the suggestions when nothing matched at all (in either tab).
 */
export function shownRows(answer: SearchAnswer, tab: SearchTab): { kind: "hot" | "results" | "suggestions" | "none"; rows: SearchRow[] } {
  if (!answer.q) return { kind: "hot", rows: answer.hot };
  if (answer.spot.length + answer.contract.length === 0) return { kind: "suggestions", rows: answer.suggestions };
  const rows = tab === "spot" ? answer.spot : answer.contract;
  return rows.length ? { kind: "results", rows } : { kind: "none", rows };
}
