import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { Amount, useWhen } from "~/components/entrust-tables";
import { PageErrorBoundary } from "~/components/error-page";
import { percentOf } from "~/components/loans/percent";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadMyStakes } from "~/services/staking/staking.server";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/staking.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "staking.mine_title") }];

/** The member's stakes (decision 052): what they will pay back per coin, the running ones with their redeem links, the ended ones. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadMyStakes(engine));
}

export default function MyStakesPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const when = useWhen();
  const { running, ended, outstanding, asked } = useLoaderData<typeof loader>();
  const term = (days: number) => (days === 0 ? t("staking.flexible") : t("staking.days", { count: days }));
  const pct = (v: string) => `${nf.fixed(percentOf(v), 2)} %`;
  return (
    <div className={s.page}>
      <section className={c.card} aria-labelledby="mine-title">
        <h1 id="mine-title" className={c.title}>
          {t("staking.mine_title")}
        </h1>
        <p className={s.links}>
          <Link to="/finance/investment" className={s.link}>
            {t("staking.title")}
          </Link>
          <Link to="/finance/investment/records" className={s.link}>
            {t("staking.records_title")}
          </Link>
        </p>
        <h2 id="outstanding-title" className={c.subtitle}>
          {t("staking.outstanding_title")}
        </h2>
        {outstanding.length === 0 ? (
          <p className={s.empty}>{t("staking.no_outstanding")}</p>
        ) : (
          <ul className={s.summary} aria-labelledby="outstanding-title" data-testid="stake-outstanding">
            {outstanding.map((o) => (
              <li key={o.coin} className={s.summaryCard}>
                <h3 className={s.summaryTitle}>
                  {o.coin} <span className={s.badge}>{t("staking.stakes_count", { count: o.stakes })}</span>
                </h3>
                <dl className={s.facts}>
                  <div className={s.fact}>
                    <dt className={s.factLabel}>{t("staking.col.principal")}</dt>
                    <dd className={s.value}>
                      <Amount value={o.principal} coin={o.coin} />
                    </dd>
                  </div>
                  <div className={s.fact}>
                    <dt className={s.factLabel}>{t("staking.col.interest")}</dt>
                    <dd className={s.value}>
                      <Amount value={o.interest} coin={o.coin} />
                    </dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className={c.card} aria-labelledby="running-title">
        <h2 id="running-title" className={c.subtitle}>
          {t("staking.running_title")}
        </h2>
        <DataTable
          rows={running}
          rowKey={(r) => r.stakeId}
          name={{ labelledBy: "running-title" }}
          testId="stake-running"
          reflow="cards"
          empty={
            <p className={s.empty}>
              {t("staking.no_running")}{" "}
              <Link to="/finance/investment" className={s.link}>
                {t("staking.browse")}
              </Link>
            </p>
          }
          columns={[
            {
              key: "coin",
              header: t("staking.col.coin"),
              cell: (r) => <span className={r.stakeId === asked ? s.asked : undefined}>{r.coin}</span>,
            },
            { key: "term", header: t("staking.col.term"), cell: (r) => term(r.termDays) },
            { key: "rate", kind: "number", header: t("staking.col.rate"), cell: (r) => pct(r.rate) },
            { key: "principal", kind: "number", header: t("staking.col.principal"), cell: (r) => <Amount value={r.principal} coin={r.coin} /> },
            { key: "interest", kind: "number", header: t("staking.col.interest_so_far"), cell: (r) => <Amount value={r.interest} coin={r.coin} /> },
            { key: "matures", kind: "time", header: t("staking.col.matures"), cell: (r) => (r.maturesAt === null ? t("staking.flexible") : when(r.maturesAt)) },
            {
              key: "redeem",
              header: t("staking.col.action"),
              cell: (r) => (
                <Link
                  to={`/finance/investment/redeem/${encodeURIComponent(r.stakeId)}`}
                  className={s.link}
                  aria-label={t("staking.redeem_of", { amount: nf.display(r.principal), coin: r.coin, term: term(r.termDays) })}
                >
                  {t("staking.redeem")}
                </Link>
              ),
            },
          ]}
        />
      </section>

      <section className={c.card} aria-labelledby="ended-title">
        <h2 id="ended-title" className={c.subtitle}>
          {t("staking.ended_title")}
        </h2>
        <DataTable
          rows={ended.records}
          rowKey={(r) => r.stakeId}
          name={{ labelledBy: "ended-title" }}
          testId="stake-ended"
          empty={<p className={s.empty}>{t("staking.no_ended")}</p>}
          pager={{ current: ended.current, pages: ended.pages, total: ended.total, hrefFor: (n) => `?page=${n}` }}
          columns={[
            { key: "coin", header: t("staking.col.coin"), cell: (r) => r.coin },
            { key: "term", header: t("staking.col.term"), cell: (r) => term(r.termDays) },
            { key: "principal", kind: "number", header: t("staking.col.principal"), cell: (r) => <Amount value={r.principal} coin={r.coin} /> },
            { key: "interest", kind: "number", header: t("staking.col.interest_paid"), cell: (r) => <Amount value={r.interest} coin={r.coin} /> },
            { key: "forfeited", kind: "number", header: t("staking.col.forfeited"), cell: (r) => <Amount value={r.forfeited} coin={r.coin} /> },
            { key: "status", kind: "status", header: t("staking.col.status"), cell: (r) => t(`staking.status.${r.status}`) },
            { key: "ended", kind: "time", header: t("staking.col.ended"), cell: (r) => when(r.updatedAt) },
          ]}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
