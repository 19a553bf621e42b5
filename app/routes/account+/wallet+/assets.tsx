import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { ACCOUNTS, type OpenAccountName } from "#protocol/accounts";
import { DataTable } from "~/components/data-table";
import { PageErrorBoundary } from "~/components/error-page";
import { PreferenceForm } from "~/components/header/preference-form";
import { toDisplayMoney } from "~/lib/display-currency";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle, useShell } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadAssets } from "~/services/wallet/wallet.server";
import * as s from "~/styles/account-center.css";
import * as w from "~/styles/wallet.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "wallet.assets.title") }];

/** The assets overview (spec §2 wallet `assets`; `t=4` the contract account). */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine, request }) => loadAssets(engine, request));
}

export default function AssetsPage() {
  const { t } = useTranslation();
  const { view, values, tables, hideSmall } = useLoaderData<typeof loader>();
  const { currency } = useShell();
  const nf = useNumberFormat();
  const money = (usdt: string | null) => toDisplayMoney(usdt, currency, nf.marks);
  const total = values.find((v) => v.type === "0");
  return (
    <>
      <section className={s.card} aria-labelledby="assets-title">
        <h1 id="assets-title" className={s.title}>
          {t(view === "contract" ? "wallet.assets.contract_title" : "wallet.assets.title")}
        </h1>
        <p className={w.totalLabel}>{t("wallet.assets.total")}</p>
        <p className={w.total} data-testid="assets-total">
          {money(total?.usdt ?? null)}
          <span className={w.totalUsdt}>≈ {nf.display(total?.usdt ?? "0", { abbreviate: false })} USDT</span>
        </p>
        <ul className={w.accounts} aria-label={t("wallet.assets.by_account")}>
          {values
            .filter((v) => v.type !== "0")
            .map((v) => (
              <li key={v.type} className={w.account}>
                <span className={s.muted}>{t(`wallet.account.${ACCOUNTS[v.type]}`)}</span>
                <strong>{money(v.usdt)}</strong>
              </li>
            ))}
        </ul>
        <div className={w.actions}>
          <Link className={w.action} to="/account/wallet/transfer">
            {t("wallet.menu.transfer")}
          </Link>
          <PreferenceForm intent="assets" className={w.inline}>
            <input type="hidden" name="value" value={hideSmall ? "all" : "hide-small"} />
            <button type="submit" className={w.toggle} aria-pressed={hideSmall}>
              {t("wallet.assets.hide_small")}
            </button>
          </PreferenceForm>
        </div>
      </section>
      {tables.map((table) => (
        <CoinTable key={table.account} {...table} money={money} />
      ))}
    </>
  );
}

function CoinTable({
  account,
  coins,
  hidden,
  money,
}: {
  account: OpenAccountName;
  coins: Array<{
    coin: string;
    name: string;
    scale: number;
    available: string;
    frozen: string;
    usdt: string | null;
    /** The contract account's coins: margin in positions, their profit at the mark, and the equity of all of it. */
    margin?: string;
    unrealised?: string;
    equity?: string;
  }>;
  hidden: number;
  money: (usdt: string | null) => string;
}) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const headingId = `coins-${account}`;
  type Coin = (typeof coins)[number];
  // The contract account's coins also hold positions: their margin, their profit at the mark, and the equity of all of it.
  const contractColumns = [
    { key: "margin", header: t("wallet.assets.margin"), kind: "number" as const, cell: (c: Coin) => nf.fixed(c.margin ?? "0", c.scale) },
    {
      key: "unrealised",
      header: t("wallet.assets.unrealised"),
      kind: "number" as const,
      cell: (c: Coin) => nf.fixed(c.unrealised ?? "0", c.scale),
    },
    { key: "equity", header: t("wallet.assets.equity"), kind: "number" as const, cell: (c: Coin) => nf.fixed(c.equity ?? c.available, c.scale) },
  ];
  const transferFrom = (coin: string) => `/account/wallet/transfer?from=${account}&coin=${coin}&to=${account === "spot" ? "funding" : "spot"}`;
  return (
    <section className={s.card} aria-labelledby={headingId}>
      <h2 id={headingId} className={s.subtitle}>
        {t(`wallet.account.${account}`)}
      </h2>
      <DataTable
        rows={coins}
        rowKey={(c) => c.coin}
        name={{ labelledBy: headingId }}
        empty={t("wallet.assets.empty")}
        testId={`coins-${account}`}
        // A few coins read one by one: on a phone each is a card, nothing to scroll sideways.
        reflow="cards"
        columns={[
          {
            key: "coin",
            header: t("wallet.assets.coin"),
            cell: (c) => (
              <span className={w.coin}>
                <strong>{c.coin}</strong> <span className={s.muted}>{c.name}</span>
              </span>
            ),
          },
          { key: "available", header: t("wallet.assets.available"), kind: "number", cell: (c) => nf.fixed(c.available, c.scale) },
          { key: "frozen", header: t("wallet.assets.frozen"), kind: "number", cell: (c) => nf.fixed(c.frozen, c.scale) },
          ...(account === "contract" ? contractColumns : []),
          { key: "value", header: t("wallet.assets.value"), kind: "number", cell: (c) => money(c.usdt) },
          {
            key: "actions",
            header: <span className="visually-hidden">{t("wallet.assets.actions")}</span>,
            cell: (c) => (
              <Link to={transferFrom(c.coin)} aria-label={t("wallet.assets.transfer_coin", { coin: c.coin })}>
                {t("wallet.menu.transfer")}
              </Link>
            ),
          },
        ]}
      />
      {hidden > 0 ? <p className={s.muted}>{t("wallet.assets.hidden", { count: hidden })}</p> : null}
    </section>
  );
}

export const ErrorBoundary = PageErrorBoundary;
