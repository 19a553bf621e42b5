import { Form, useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState, type ChangeEvent, type FocusEvent, type KeyboardEvent } from "react";
import { useTranslation } from "~/lib/i18n";
import {
  rowTradingPath,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MAX_LENGTH,
  SEARCH_PATH,
  SEARCH_SLOW_MS,
  searchHref,
  shownRows,
  type SearchData,
  type SearchRow,
  type SearchTab,
} from "~/lib/search";
import { useHydrated } from "~/lib/use-hydrated";
import { SearchRowContent } from "../search/search-row";
import * as rs from "../search/search-row.css";
import * as h from "./header.css";
import * as s from "./header-search.css";

const INPUT_ID = "header-search";
const PANEL_ID = "header-search-panel";
const LISTBOX_ID = "header-search-listbox";
const TABPANEL_ID = "header-search-tabpanel";
const optionId = (index: number) => `header-search-option-${index}`;
const tabId = (tab: SearchTab) => `header-search-tab-${tab}`;
const TABS: readonly SearchTab[] = ["spot", "contract"];

/**
 * The header search (spec §2, §9). Without JavaScript it is a GET form to the search page
 * (`/search?q=`). With JavaScript it is a WAI-ARIA combobox: typing shows a panel under the box
 * with the hot list (no text), the matches in spot and contract tabs, or the empty state with
 * suggestions; arrows move through the options, Enter opens one's trading page (or, with none
 * chosen, the search page), Escape closes. The lists come from the search page's loader through
 * a fetcher, asked once typing pauses; the loading indicator shows only when an answer is slow.
 */
export function HeaderSearch() {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const fetcher = useFetcher<SearchData>();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<SearchTab>("spot");
  const [active, setActive] = useState(-1);
  const rootRef = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<Partial<Record<SearchTab, HTMLButtonElement | null>>>({});
  const loaded = useRef<string | null>(null);
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const slow = useSlow(fetcher.state !== "idle", SEARCH_SLOW_MS);
  const q = text.trim();

  // Ask once typing pauses; the same text is not asked twice in a row.
  useEffect(() => {
    if (!open || loaded.current === q) return;
    const timer = setTimeout(() => {
      loaded.current = q;
      void load.current(searchHref(q));
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [open, q]);

  const data = fetcher.data;
  const view = data ? shownRows(data.answer, tab) : null;
  const rows = view?.rows ?? [];

  // A new answer or another tab: no option is chosen; a new text starts on the spot tab.
  useEffect(() => setActive(-1), [data, tab]);
  useEffect(() => setTab("spot"), [data?.answer.q]);
  // Leaving for another page closes the panel and empties the box.
  useEffect(() => {
    setOpen(false);
    setText("");
  }, [location.key]);

  // A click outside closes the panel.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  const expanded = hydrated && open && (data !== undefined || slow);
  const go = (row: SearchRow) => {
    setOpen(false);
    navigate(rowTradingPath(row));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = rows.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return setOpen(true);
      if (!count) return;
      const down = event.key === "ArrowDown";
      setActive((current) => (down ? (current + 1) % count : current <= 0 ? count - 1 : current - 1));
    } else if (event.key === "Enter" && expanded && active >= 0 && rows[active]) {
      event.preventDefault();
      go(rows[active]);
    } else if (event.key === "Escape" && open) {
      // Handled here: the browser would otherwise empty the box.
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  // Focus leaving the search (Tab past it, another control) closes the panel.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!rootRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
  };

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + 1) % TABS.length]!;
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  const showTabs = view?.kind === "results" || view?.kind === "none";
  const listbox = rows.length > 0 ? LISTBOX_ID : undefined;
  const listLabel = view?.kind === "hot" ? "header-search-hot" : view?.kind === "suggestions" ? "header-search-suggestions" : tabId(tab);

  const options =
    rows.length > 0 ? (
      <ul id={LISTBOX_ID} role="listbox" aria-labelledby={listLabel} className={s.list}>
        {rows.map((row, index) => (
          // NOTE: the option is chosen with the keyboard through the box (aria-activedescendant); the
          // pointer picks it here. An option holds no link: its children are presentational.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={row.symbol}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={s.option}
            onClick={() => go(row)}
            onPointerMove={() => index !== active && setActive(index)}
          >
            <span className={rs.row}>
              <SearchRowContent row={row} />
            </span>
          </li>
        ))}
      </ul>
    ) : null;

  return (
    // The container only notices focus leaving it (onBlur bubbles from the box and the tabs).
    <div className={`${h.search} ${s.wrap}`} ref={rootRef} onBlur={onBlur}>
      <Form method="get" action={SEARCH_PATH} role="search">
        <label htmlFor={INPUT_ID} className="visually-hidden">
          {t("header.search_label")}
        </label>
        <input
          id={INPUT_ID}
          type="search"
          name="q"
          className={h.searchInput}
          placeholder={t("header.search_placeholder")}
          autoComplete="off"
          maxLength={SEARCH_MAX_LENGTH}
          value={text}
          onChange={(event: ChangeEvent<HTMLInputElement>) => {
            setText(event.target.value);
            setOpen(true);
          }}
          {...(hydrated
            ? {
                role: "combobox",
                "aria-autocomplete": "list" as const,
                "aria-expanded": expanded,
                "aria-controls": expanded ? (listbox ?? PANEL_ID) : undefined,
                "aria-activedescendant": expanded && active >= 0 && rows[active] ? optionId(active) : undefined,
                onFocus: () => setOpen(true),
                onClick: () => setOpen(true),
                onKeyDown,
              }
            : {})}
        />
      </Form>
      {hydrated ? (
        <p role="status" className="visually-hidden">
          {expanded && data?.answer.q && view?.kind !== "suggestions"
            ? t("market_list.results", { q: data.answer.q, count: data.answer.spot.length + data.answer.contract.length })
            : ""}
          {expanded && view?.kind === "suggestions" ? t("search.empty", { q: data?.answer.q }) : ""}
        </p>
      ) : null}
      {expanded ? (
        // tabIndex -1: a click inside the panel keeps the focus within the search, so it stays open.
        <div id={PANEL_ID} className={s.panel} tabIndex={-1}>
          {slow ? (
            <p className={s.loading}>
              <span className={s.spinner} aria-hidden="true" />
              {t("search.loading")}
            </p>
          ) : null}
          {data?.error ? <p className={s.error}>{t(data.error)}</p> : null}
          {view?.kind === "hot" ? (
            <>
              <p id="header-search-hot" className={s.heading}>
                {t("search.hot")}
              </p>
              {options}
            </>
          ) : null}
          {view?.kind === "suggestions" ? (
            <>
              <p className={s.note}>{t("search.empty", { q: data?.answer.q })}</p>
              <p id="header-search-suggestions" className={s.heading}>
                {t("search.suggestions")}
              </p>
              {options}
            </>
          ) : null}
          {showTabs && data ? (
            <>
              <div role="tablist" aria-label={t("market_list.tabs_label")} className={s.tabs}>
                {TABS.map((each) => (
                  <button
                    key={each}
                    ref={(element) => {
                      tabRefs.current[each] = element;
                    }}
                    type="button"
                    role="tab"
                    id={tabId(each)}
                    aria-selected={each === tab}
                    aria-controls={TABPANEL_ID}
                    tabIndex={each === tab ? 0 : -1}
                    className={s.tab}
                    onClick={() => setTab(each)}
                    onKeyDown={onTabKey}
                  >
                    {t(each === "spot" ? "market_list.tab_spot" : "market_list.tab_contract")} ({data.answer[each].length})
                  </button>
                ))}
              </div>
              <div id={TABPANEL_ID} role="tabpanel" aria-labelledby={tabId(tab)}>
                {options ?? (
                  <p className={s.note}>
                    {tab === "spot"
                      ? t("search.no_spot", { q: data.answer.q })
                      : data.answer.contractsListed
                        ? t("search.no_contract", { q: data.answer.q })
                        : t("search.no_contracts")}
                  </p>
                )}
              </div>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** True once `busy` has lasted `ms` (spec §9: no indicator for a quick answer), false when it ends. */
function useSlow(busy: boolean, ms: number): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!busy) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), ms);
    return () => clearTimeout(timer);
  }, [busy, ms]);
  return slow;
}
