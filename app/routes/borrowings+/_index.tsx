import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { useWhen } from "~/components/entrust-tables";
import { PageErrorBoundary } from "~/components/error-page";
import { useTranslation } from "~/lib/i18n";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadBorrowings } from "~/services/loans/loans.server";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/loans.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "loans.history_title") }];

/** The member's closed crypto loans (spec §2 `/borrowings`, hidden in the navigation by default; decision 051): repaid or liquidated. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadBorrowings(engine));
}

export default function BorrowingsPage() {
  const { t } = useTranslation();
  const when = useWhen();
  const { page } = useLoaderData<typeof loader>();
  return (
    <div className={s.page}>
      <section className={c.card} aria-labelledby="borrowings-title">
        <h1 id="borrowings-title" className={c.title}>
          {t("loans.history_title")}
        </h1>
        <p className={s.links}>
          <Link to="/my-loan" className={s.link}>
            {t("loans.my_loans")}
          </Link>
          <Link to="/borrowings/records" className={s.link}>
            {t("loans.records_title")}
          </Link>
        </p>
        <DataTable
          rows={page.records}
          rowKey={(l) => l.loanId}
          name={{ labelledBy: "borrowings-title" }}
          empty={<p className={s.empty}>{t("loans.no_history")}</p>}
          pager={{ current: page.current, pages: page.pages, total: page.total, hrefFor: (n) => `?page=${n}` }}
          columns={[
            { key: "time", kind: "time", header: t("loans.col.created"), cell: (l) => when(l.createdAt) },
            { key: "loan", header: t("loans.col.loan"), cell: (l) => `${l.loanCoin} / ${l.collateralCoin}` },
            { key: "term", header: t("loans.col.term"), cell: (l) => (l.termDays === 0 ? t("loans.flexible") : t("loans.days", { count: l.termDays })) },
            { key: "status", kind: "status", header: t("loans.col.status"), cell: (l) => t(`loans.status.${l.status}`) },
            { key: "closed", kind: "time", header: t("loans.col.closed"), cell: (l) => when(l.updatedAt) },
            {
              key: "records",
              kind: "number",
              header: t("loans.col.records"),
              cell: (l) => (
                <Link to={`/borrowings/records?loan=${encodeURIComponent(l.loanId)}`} className={s.link} aria-label={t("loans.records_of", { loan: l.loanId })}>
                  {t("loans.records_title")}
                </Link>
              ),
            },
          ]}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
