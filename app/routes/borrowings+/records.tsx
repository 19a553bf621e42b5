import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { Amount, useWhen } from "~/components/entrust-tables";
import { PageErrorBoundary } from "~/components/error-page";
import { useTranslation } from "~/lib/i18n";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadBorrowRecords } from "~/services/loans/loans.server";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/loans.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "loans.records_title") }];

/** What happened to the member's crypto loans (spec §2 `/borrowings/records`; decision 051): borrows, repayments, interest, collateral, liquidations. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadBorrowRecords(engine));
}

export default function BorrowRecordsPage() {
  const { t } = useTranslation();
  const when = useWhen();
  const { loanId, page } = useLoaderData<typeof loader>();
  const base = loanId ? `?loan=${encodeURIComponent(loanId)}&` : "?";
  return (
    <div className={s.page}>
      <section className={c.card} aria-labelledby="records-title">
        <h1 id="records-title" className={c.title}>
          {t("loans.records_title")}
          {loanId ? <span className={s.badge}> · {loanId}</span> : null}
        </h1>
        <p className={s.links}>
          <Link to="/my-loan" className={s.link}>
            {t("loans.my_loans")}
          </Link>
          <Link to="/borrowings" className={s.link}>
            {t("loans.history_title")}
          </Link>
          {loanId ? (
            <Link to="/borrowings/records" className={s.link}>
              {t("loans.all_records")}
            </Link>
          ) : null}
        </p>
        <DataTable
          rows={page.records}
          rowKey={(r) => r.id}
          name={{ labelledBy: "records-title" }}
          empty={<p className={s.empty}>{t("loans.no_records")}</p>}
          pager={{ current: page.current, pages: page.pages, total: page.total, hrefFor: (n) => `${base}page=${n}` }}
          columns={[
            { key: "time", kind: "time", header: t("loans.col.time"), cell: (r) => when(r.createdAt) },
            { key: "loan", header: t("loans.col.loan"), cell: (r) => r.loanId },
            { key: "kind", header: t("loans.col.kind"), cell: (r) => t(`loans.record.${r.kind}`) },
            { key: "amount", kind: "number", header: t("loans.col.amount"), cell: (r) => <Amount value={r.amount} coin={r.coin} /> },
            { key: "interest", kind: "number", header: t("loans.col.interest"), cell: (r) => <Amount value={r.interest} coin={r.coin} /> },
          ]}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
