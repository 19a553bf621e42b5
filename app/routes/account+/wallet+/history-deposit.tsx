import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { PageErrorBoundary } from "~/components/error-page";
import * as f from "~/components/forms.css";
import { DepositTable } from "~/components/wallet/deposit-table";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadDeposits } from "~/services/wallet/wallet.server";
import * as s from "~/styles/account-center.css";
import * as w from "~/styles/wallet.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "wallet.deposits.title") }];

/** The member's deposits (spec §2 wallet `history-deposit`): every one, newest first, by coin, with where it stands. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine, request }) => loadDeposits(engine, request));
}

export default function DepositHistoryPage() {
  const { t } = useTranslation();
  const { page, coins, coin } = useLoaderData<typeof loader>();
  const query = (n: number) => `?${new URLSearchParams({ ...(coin ? { coin } : {}), page: String(n) }).toString()}`;
  return (
    <section className={s.card} aria-labelledby="deposit-history-title">
      <h1 id="deposit-history-title" className={s.title}>
        {t("wallet.deposits.title")}
      </h1>
      <Form method="get" className={w.filtersShort} aria-label={t("wallet.deposits.filter")}>
        <div className={f.field}>
          <label htmlFor="deposits-coin" className={f.label}>
            {t("wallet.bills.coin")}
          </label>
          <select id="deposits-coin" name="coin" defaultValue={coin ?? ""} className={f.input}>
            <option value="">{t("wallet.bills.all")}</option>
            {coins.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className={w.filterActions}>
          <button type="submit" className={f.primary}>
            {t("wallet.bills.search")}
          </button>
        </div>
      </Form>
      <DepositTable
        rows={page.records}
        labelledBy="deposit-history-title"
        full
        empty={t(coin ? "wallet.bills.empty_filtered" : "wallet.deposit.empty")}
        pager={{ current: page.current, pages: page.pages, total: page.total, hrefFor: query }}
      />
    </section>
  );
}

export const ErrorBoundary = PageErrorBoundary;
