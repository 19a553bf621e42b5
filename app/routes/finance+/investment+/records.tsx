import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { STAKE_RECORD_KINDS } from "~/lib/staking";
import { DataTable } from "~/components/data-table";
import { Amount, useWhen } from "~/components/entrust-tables";
import { PageErrorBoundary } from "~/components/error-page";
import { SelectField } from "~/components/forms";
import { useTranslation } from "~/lib/i18n";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadStakeRecords } from "~/services/staking/staking.server";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/staking.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "staking.records_title") }];

/** What happened to the member's stakes (decision 052): staked, redeemed, matured, redeemed early; of one kind and coin, or all. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadStakeRecords(engine));
}

export default function StakeRecordsPage() {
  const { t } = useTranslation();
  const when = useWhen();
  const { coins, kind, coin, page } = useLoaderData<typeof loader>();
  const filter = new URLSearchParams({ ...(kind ? { kind } : {}), ...(coin ? { coin } : {}) }).toString();
  return (
    <div className={s.page}>
      <section className={c.card} aria-labelledby="records-title">
        <h1 id="records-title" className={c.title}>
          {t("staking.records_title")}
        </h1>
        <p className={s.links}>
          <Link to="/finance/investment" className={s.link}>
            {t("staking.title")}
          </Link>
          <Link to="/finance/investment/mine" className={s.link}>
            {t("staking.mine_title")}
          </Link>
        </p>
        {/* A GET form: the filtered list is a page of its own, without JavaScript too. */}
        <Form method="get" className={s.filters} aria-label={t("staking.filters")} key={filter}>
          <SelectField label={t("staking.col.kind")} selectProps={{ id: "records-kind", name: "kind", defaultValue: kind ?? "" }}>
            <option value="">{t("staking.all")}</option>
            {STAKE_RECORD_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`staking.record.${k}`)}
              </option>
            ))}
          </SelectField>
          <SelectField label={t("staking.col.coin")} selectProps={{ id: "records-coin", name: "coin", defaultValue: coin ?? "" }}>
            <option value="">{t("staking.all")}</option>
            {coins.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </SelectField>
          <button type="submit" className={`${c.action} ${s.filterButton}`}>
            {t("staking.filter")}
          </button>
        </Form>
        <DataTable
          rows={page.records}
          rowKey={(r) => r.id}
          name={{ labelledBy: "records-title" }}
          testId="stake-records"
          empty={<p className={s.empty}>{t("staking.no_records")}</p>}
          pager={{ current: page.current, pages: page.pages, total: page.total, hrefFor: (n) => `?${filter ? `${filter}&` : ""}page=${n}` }}
          columns={[
            { key: "time", kind: "time", header: t("staking.col.time"), cell: (r) => when(r.createdAt) },
            { key: "kind", header: t("staking.col.kind"), cell: (r) => t(`staking.record.${r.kind}`) },
            { key: "coin", header: t("staking.col.coin"), cell: (r) => r.coin },
            { key: "principal", kind: "number", header: t("staking.col.principal"), cell: (r) => <Amount value={r.principal} coin={r.coin} /> },
            { key: "interest", kind: "number", header: t("staking.col.interest_paid"), cell: (r) => <Amount value={r.interest} coin={r.coin} /> },
            { key: "forfeited", kind: "number", header: t("staking.col.forfeited"), cell: (r) => <Amount value={r.forfeited} coin={r.coin} /> },
          ]}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
