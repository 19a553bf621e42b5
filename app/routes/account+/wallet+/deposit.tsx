import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/lib/i18n";
import { DepositTable } from "~/components/wallet/deposit-table";
import { PageErrorBoundary } from "~/components/error-page";
import * as f from "~/components/forms.css";
import { useHydrated } from "~/lib/use-hydrated";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadDeposit } from "~/services/wallet/wallet.server";
import * as s from "~/styles/account-center.css";
import * as w from "~/styles/wallet.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "wallet.deposit.title") }];

/** Deposits (spec §2 wallet `deposit`): the member's address of a coin on a network, its QR code and notes, recent deposits. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine, request }) => loadDeposit(engine, request));
}

export default function DepositPage() {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const hydrated = useHydrated();
  const { coins, choice, address, refused, qr, recent } = useLoaderData<typeof loader>();
  const [copied, setCopied] = useState(false);
  const networks = coins.find((c) => c.coin === choice.coin)?.networks ?? [];
  const copy = async () => {
    if (!address) return;
    await navigator.clipboard.writeText(address.address);
    setCopied(true);
  };
  return (
    <>
      <section className={s.card} aria-labelledby="deposit-title">
        <h1 id="deposit-title" className={s.title}>
          {t("wallet.deposit.title")}
        </h1>
        {/* Choosing a coin or network is a GET: it works without JavaScript, and the address shown is the one asked for. */}
        <Form method="get" className={w.filters} key={`${choice.coin}:${choice.network}`}>
          <div className={f.field}>
            <label htmlFor="deposit-coin" className={f.label}>
              {t("wallet.deposit.coin")}
            </label>
            <select id="deposit-coin" name="coin" defaultValue={choice.coin ?? ""} className={f.input}>
              {coins.map((c) => (
                <option key={c.coin} value={c.coin}>
                  {c.coin} · {c.name}
                </option>
              ))}
            </select>
          </div>
          <div className={f.field}>
            <label htmlFor="deposit-network" className={f.label}>
              {t("wallet.deposit.network")}
            </label>
            <select id="deposit-network" name="network" defaultValue={choice.network ?? ""} className={f.input}>
              {networks.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <div className={w.filterActions}>
            <button type="submit" className={f.primary}>
              {t("wallet.deposit.show")}
            </button>
          </div>
        </Form>
        {address ? (
          <div className={w.deposit}>
            {qr ? (
              <div className={w.qr} role="img" aria-label={t("wallet.deposit.qr", { coin: address.coin })} dangerouslySetInnerHTML={{ __html: qr }} />
            ) : null}
            <dl className={w.depositFacts}>
              <dt className={s.muted}>{t("wallet.deposit.address", { coin: address.coin, network: address.network })}</dt>
              <dd className={w.address} data-testid="deposit-address">
                {address.address}
              </dd>
              {address.tag !== null ? (
                <>
                  <dt className={s.muted}>{t("wallet.deposit.tag")}</dt>
                  <dd className={w.address} data-testid="deposit-tag">
                    {address.tag}
                  </dd>
                </>
              ) : null}
              <dt className={s.muted}>{t("wallet.deposit.minimum")}</dt>
              <dd>
                {nf.display(address.minDeposit, { abbreviate: false })} {address.coin}
              </dd>
              <dt className={s.muted}>{t("wallet.deposit.confirmations")}</dt>
              <dd>{address.confirmations}</dd>
            </dl>
            {hydrated ? (
              <button type="button" className={s.action} onClick={() => void copy()}>
                {copied ? t("wallet.deposit.copied") : t("wallet.deposit.copy")}
              </button>
            ) : null}
            <p className={s.muted}>
              {t(address.tag !== null ? "wallet.deposit.note_tag" : "wallet.deposit.note", { coin: address.coin, network: address.network })}
            </p>
          </div>
        ) : refused ? (
          <p className={f.formErrors} role="alert" data-testid="deposit-refused">
            {refused}
          </p>
        ) : (
          <p className={s.muted}>{t("wallet.deposit.none")}</p>
        )}
      </section>
      <section className={s.card} aria-labelledby="deposits-title">
        <h2 id="deposits-title" className={s.subtitle}>
          {t("wallet.deposit.recent")}
        </h2>
        <DepositTable rows={recent} labelledBy="deposits-title" empty={t("wallet.deposit.empty")} />
        <p>
          <Link to="/account/wallet/history-deposit" className={s.action}>
            {t("wallet.deposit.all")}
          </Link>
        </p>
      </section>
    </>
  );
}

export const ErrorBoundary = PageErrorBoundary;
