import { Form, useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState, type ChangeEvent, type FocusEvent, type KeyboardEvent } from "react";
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
import * as h from "./header.css";
import * as s from "./header-search.css";

const INPUT_ID = "header-search";
const PANEL_ID = "header-search-panel";
const LISTBOX_ID = "header-search-listbox";
const TABPANEL_ID = "header-search-tabpanel";
const optionId = (index: number) => `header-search-option-${index}`;
const tabId = (tab: SearchTab) => `header-search-tab-${tab}`;

// The panel (its tabs, the rows with prices in the display currency) loads when it first opens, not
// with every page (decision 034), while the lists it shows are asked for.
const loadPanel = () => import("./header-search-panel");
const SearchPanel = lazy(loadPanel);

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
  const loaded = useRef<string | null>(null);
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const slow = useSlow(fetcher.state !== "idle", SEARCH_SLOW_MS);
  const q = text.trim();

  // Ask once typing pauses; the same text is not asked twice in a row.
  useEffect(() => {
    if (open) void loadPanel();
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

  const listbox = rows.length > 0 ? LISTBOX_ID : undefined;

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
        <Suspense fallback={null}>
          <SearchPanel
            panelId={PANEL_ID}
            listboxId={LISTBOX_ID}
            tabpanelId={TABPANEL_ID}
            optionId={optionId}
            tabId={tabId}
            slow={slow}
            data={data}
            tab={tab}
            onTab={setTab}
            active={active}
            onChoose={go}
            onPoint={setActive}
          />
        </Suspense>
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
