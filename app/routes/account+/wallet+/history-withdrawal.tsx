import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import type { WithdrawalView } from "#protocol/endpoints/withdrawals";
import { CANCELLABLE_WITHDRAWAL_STATES, WITHDRAWAL_STATES } from "#protocol/wallet-lists";
import { DataTable } from "~/components/data-table";
import { PageErrorBoundary } from "~/components/error-page";
import * as f from "~/components/forms.css";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { cancelWithdrawalAction, loadWithdrawals } from "~/services/wallet/wallet.server";
import * as s from "~/styles/account-center.css";
import * as w from "~/styles/wallet.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "wallet.withdrawals.title") }];

/** The member's withdrawals (spec §2 wallet `history-withdrawal`, §3 withdrawal record with its rejection reason and cancel). */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine, request }) => loadWithdrawals(engine, request));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine, request }) => cancelWithdrawalAction(engine, request));
}

const cancellable = (w: WithdrawalView) => (CANCELLABLE_WITHDRAWAL_STATES as readonly string[]).includes(w.state);

export default function WithdrawalHistoryPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const { page, coins, filter } = useLoaderData<typeof loader>();
  const hrefFor = (n: number) =>
    `?${new URLSearchParams({ ...(filter.coin ? { coin: filter.coin } : {}), ...(filter.state ? { state: filter.state } : {}), page: String(n) }).toString()}`;
  const time = (iso: string) => new Date(iso).toISOString().slice(0, 19).replace("T", " ");
  return (
    <section className={s.card} aria-labelledby="withdrawals-title">
      <h1 id="withdrawals-title" className={s.title}>
        {t("wallet.withdrawals.title")}
      </h1>
      <Form method="get" className={w.filtersShort} aria-label={t("wallet.withdrawals.filter")} key={`${filter.coin}:${filter.state}`}>
        <div className={f.field}>
          <label htmlFor="withdrawals-coin" className={f.label}>
            {t("wallet.bills.coin")}
          </label>
          <select id="withdrawals-coin" name="coin" defaultValue={filter.coin ?? ""} className={f.input}>
            <option value="">{t("wallet.bills.all")}</option>
            {coins.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className={f.field}>
          <label htmlFor="withdrawals-state" className={f.label}>
            {t("wallet.withdrawals.state")}
          </label>
          <select id="withdrawals-state" name="state" defaultValue={filter.state ?? ""} className={f.input}>
            <option value="">{t("wallet.bills.all")}</option>
            {WITHDRAWAL_STATES.map((state) => (
              <option key={state} value={state}>
                {t(`wallet.withdrawals.states.${state}`)}
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
      <DataTable
        rows={page.records}
        rowKey={(w) => w.id}
        name={{ labelledBy: "withdrawals-title" }}
        empty={t(filter.coin || filter.state ? "wallet.bills.empty_filtered" : "wallet.withdrawals.empty")}
        testId="withdrawals"
        pager={{ current: page.current, pages: page.pages, total: page.total, hrefFor }}
        columns={[
          { key: "time", header: t("wallet.withdrawals.time"), kind: "time", cell: (w) => <time dateTime={w.createdAt}>{time(w.createdAt)} UTC</time> },
          { key: "coin", header: t("wallet.withdrawals.coin"), cell: (w) => `${w.coin} · ${w.network ?? ""}` },
          { key: "amount", header: t("wallet.withdrawals.amount"), kind: "number", cell: (w) => nf.display(w.amount, { abbreviate: false }) },
          { key: "fee", header: t("wallet.withdrawals.fee"), kind: "number", cell: (w) => nf.display(w.fee, { abbreviate: false }) },
          {
            key: "address",
            header: t("wallet.withdrawals.address"),
            cell: (w) => (
              <span style={{ wordBreak: "break-all" }}>
                {w.address}
                {w.memo ? ` · ${t("wallet.withdrawals.memo", { memo: w.memo })}` : ""}
              </span>
            ),
          },
          {
            key: "state",
            header: t("wallet.withdrawals.state"),
            kind: "status",
            cell: (w) => (
              <>
                {t(`wallet.withdrawals.states.${w.state}`)}
                {w.reason ? <span className={s.muted}> · {w.reason}</span> : null}
                {w.txid ? (
                  <span className={s.muted} title={w.txid}>
                    {" "}
                    · {t("wallet.withdrawals.txid", { txid: `${w.txid.slice(0, 10)}…` })}
                  </span>
                ) : null}
              </>
            ),
          },
          {
            key: "actions",
            header: <span className="visually-hidden">{t("wallet.assets.actions")}</span>,
            cell: (w) =>
              cancellable(w) ? (
                <Form method="post" className={s.inlineForm}>
                  <input type="hidden" name="withdrawalId" value={w.id} />
                  <button type="submit" className={s.action} aria-label={t("wallet.withdrawals.cancel_one", { amount: w.amount, coin: w.coin })}>
                    {t("wallet.withdrawals.cancel")}
                  </button>
                </Form>
              ) : null,
          },
        ]}
      />
    </section>
  );
}

export const ErrorBoundary = PageErrorBoundary;
