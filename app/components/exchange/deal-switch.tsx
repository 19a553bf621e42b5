import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { DEALS, type Deal } from "~/lib/trading-tabs";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "./exchange.css";

export interface DealAccount {
  marginLevel: string | null;
  debtsValue: string;
  leverage: number;
  warned: boolean;
  liquidationLevel: string;
}

/**
 * The trading page's cash / margin switch (spec §3 `dealType`: cash or pry) on a margin pair:
 * links (no script needed) to the same page trading from the spot account, the cross margin
 * account or the pair's isolated one; beside it, the margin account's level, debts and leverage,
 * and where to borrow, repay or move funds in.
 */
export function DealSwitch({ deal, account, symbol, hrefOf }: { deal: Deal; account: DealAccount | null; symbol: string; hrefOf: (deal: Deal) => string }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const marginPage = `/account/wallet/margin${deal === "fixed" ? `?account=${symbol.replace("/", "_")}` : ""}`;
  return (
    <div className={s.dealBar}>
      <nav className={s.dealTabs} aria-label={t("exchange.deal_label")}>
        {DEALS.map((d) => (
          <Link key={d} to={hrefOf(d)} className={s.dealTab} aria-current={d === deal ? "true" : undefined} preventScrollReset replace>
            {t(`exchange.deal.${d}`)}
          </Link>
        ))}
      </nav>
      {account ? (
        <>
          <dl className={s.dealFacts} data-testid="deal-facts">
            <div className={s.dealFact}>
              <dt>{t("exchange.margin_level")}</dt>
              <dd className={`${s.dealValue} ${account.warned ? s.dealWarned : ""}`}>{account.marginLevel ?? "--"}</dd>
            </div>
            <div className={s.dealFact}>
              <dt>{t("exchange.margin_debts")}</dt>
              <dd className={s.dealValue}>{nf.display(account.debtsValue)} USDT</dd>
            </div>
            <div className={s.dealFact}>
              <dt>{t("exchange.margin_leverage")}</dt>
              <dd className={s.dealValue}>{account.leverage}×</dd>
            </div>
          </dl>
          <Link to={marginPage} className={s.dealLink}>
            {t("exchange.margin_manage")}
          </Link>
        </>
      ) : null}
    </div>
  );
}
