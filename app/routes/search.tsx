import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import type { SearchRow } from "#protocol/endpoints/search";
import * as rs from "~/components/search/search-row.css";
import { SearchRowContent } from "~/components/search/search-row";
import { rowTradingPath, SEARCH_MAX_LENGTH, SEARCH_PATH } from "~/lib/search";
import { pageTitle } from "~/lib/use-shell";
import { withEngine } from "~/services/engine/route.server";
import { loadSearch } from "~/services/spot/search.server";
import * as s from "./search.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "search.title") }];

/**
 * The header search's page (`/search?q=`, spec §2 "Header search"): what the header's panel shows,
 * for a browser without JavaScript (the header box is a GET form to here) and for the panel
 * itself, whose fetcher reads this loader.
 */
export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, ({ engine }) => loadSearch(engine));
}

export default function SearchPage() {
  const { t } = useTranslation();
  const { q, error, answer } = useLoaderData<typeof loader>();
  const found = answer.spot.length + answer.contract.length;
  return (
    <div className={s.page}>
      <h1 className={s.title}>{t("search.title")}</h1>
      <Form method="get" action={SEARCH_PATH} role="search" className={s.form}>
        <label htmlFor="search-page-q" className="visually-hidden">
          {t("header.search_label")}
        </label>
        <input
          key={q}
          id="search-page-q"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={SEARCH_MAX_LENGTH}
          autoComplete="off"
          placeholder={t("header.search_placeholder")}
          className={s.input}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "search-page-error" : undefined}
        />
        <button type="submit" className={s.button}>
          {t("market_list.search_submit")}
        </button>
      </Form>
      {error ? (
        <p id="search-page-error" className={s.error}>
          {t(error)}
        </p>
      ) : null}

      {!answer.q ? (
        <RowSection id="search-hot" title={t("search.hot")} rows={answer.hot} />
      ) : found === 0 ? (
        <section aria-labelledby="search-empty" className={s.section}>
          <h2 id="search-empty" className={s.heading}>
            {t("search.empty", { q: answer.q })}
          </h2>
          <p className={s.note}>{t("search.suggestions")}</p>
          <RowList rows={answer.suggestions} />
        </section>
      ) : (
        <>
          <p className={s.summary}>{t("market_list.results", { q: answer.q, count: found })}</p>
          <RowSection id="search-spot" title={t("market_list.tab_spot")} rows={answer.spot} empty={t("search.no_spot", { q: answer.q })} />
          <RowSection
            id="search-contract"
            title={t("market_list.tab_contract")}
            rows={answer.contract}
            empty={answer.contractsListed ? t("search.no_contract", { q: answer.q }) : t("search.no_contracts")}
          />
        </>
      )}
    </div>
  );
}

function RowSection({ id, title, rows, empty }: { id: string; title: string; rows: SearchRow[]; empty?: string }) {
  return (
    <section aria-labelledby={id} className={s.section}>
      <h2 id={id} className={s.heading}>
        {title}
      </h2>
      {rows.length ? <RowList rows={rows} /> : <p className={s.note}>{empty}</p>}
    </section>
  );
}

function RowList({ rows }: { rows: SearchRow[] }) {
  return (
    <ul className={s.list}>
      {rows.map((row) => (
        <li key={row.symbol}>
          <Link to={rowTradingPath(row)} className={`${rs.row} ${s.link}`}>
            <SearchRowContent row={row} />
          </Link>
        </li>
      ))}
    </ul>
  );
}
