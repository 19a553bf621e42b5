import { useRef, type KeyboardEvent } from "react";
import { useTranslation } from "~/lib/i18n";
import { shownRows, type SearchData, type SearchRow, type SearchTab } from "~/lib/search";
import { SearchRowContent } from "../search/search-row";
import * as rs from "../search/search-row.css";
import * as s from "./header-search.css";

const TABS: readonly SearchTab[] = ["spot", "contract"];

/**
 * The header search's panel (header-search.tsx): the hot list, the matches in spot and contract
 * tabs, or the suggestions. Loaded when the panel first opens (decision 034).
 */
export default function SearchPanel({
  panelId,
  listboxId,
  tabpanelId,
  optionId,
  tabId,
  slow,
  data,
  tab,
  onTab,
  active,
  onChoose,
  onPoint,
}: {
  panelId: string;
  listboxId: string;
  tabpanelId: string;
  optionId: (index: number) => string;
  tabId: (tab: SearchTab) => string;
  slow: boolean;
  data: SearchData | undefined;
  tab: SearchTab;
  onTab: (tab: SearchTab) => void;
  active: number;
  onChoose: (row: SearchRow) => void;
  onPoint: (index: number) => void;
}) {
  const { t } = useTranslation();
  const tabRefs = useRef<Partial<Record<SearchTab, HTMLButtonElement | null>>>({});
  const view = data ? shownRows(data.answer, tab) : null;
  const rows = view?.rows ?? [];
  const showTabs = view?.kind === "results" || view?.kind === "none";
  const listLabel = view?.kind === "hot" ? "header-search-hot" : view?.kind === "suggestions" ? "header-search-suggestions" : tabId(tab);
  const setTab = onTab;

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + 1) % TABS.length]!;
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  const options =
    rows.length > 0 ? (
      <ul id={listboxId} role="listbox" aria-labelledby={listLabel} className={s.list}>
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
            onClick={() => onChoose(row)}
            onPointerMove={() => index !== active && onPoint(index)}
          >
            <span className={rs.row}>
              <SearchRowContent row={row} />
            </span>
          </li>
        ))}
      </ul>
    ) : null;

  return (
    // tabIndex -1: a click inside the panel keeps the focus within the search, so it stays open.
    <div id={panelId} className={s.panel} tabIndex={-1}>
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
                aria-controls={tabpanelId}
                tabIndex={each === tab ? 0 : -1}
                className={s.tab}
                onClick={() => setTab(each)}
                onKeyDown={onTabKey}
              >
                {t(each === "spot" ? "market_list.tab_spot" : "market_list.tab_contract")} ({data.answer[each].length})
              </button>
            ))}
          </div>
          <div id={tabpanelId} role="tabpanel" aria-labelledby={tabId(tab)}>
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
  );
}
