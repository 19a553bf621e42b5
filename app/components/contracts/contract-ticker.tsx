import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { ContractInfo, ContractState } from "#protocol/endpoints/contracts";
import { percentOf } from "~/lib/contract-cost";
import { clsx } from "~/lib/clsx";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "../exchange/exchange.css";

/** HH:MM:SS until `at` (ms), never below zero. */
export function countdownText(at: number, now: number): string {
  const left = Math.max(0, Math.floor((at - now) / 1000));
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(Math.floor(left / 3600))}:${two(Math.floor((left % 3600) / 60))}:${two(left % 60)}`;
}

/** The time left to the next funding: drawn by the server, ticking each second in the browser. */
function FundingCountdown({ at }: { at: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={new Date(at).toISOString()} suppressHydrationWarning>
      {countdownText(at, now)}
    </time>
  );
}

/**
 * The contract, its last price and mark, index, funding rate with the time left to its payment,
 * and open interest (in the member's language, prices with the contract's decimals); a list to
 * switch contracts (links: no script needed).
 */
export function ContractTicker({ info, state, contracts }: { info: ContractInfo; state: ContractState; contracts: ContractInfo[] }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const scale = info.priceScale;
  const funding = percentOf(state.fundingRate);
  const fundingTone = funding.startsWith("-") ? s.tone.down : /[1-9]/.test(funding) ? s.tone.up : undefined;
  return (
    <div className={s.bar}>
      <details className={s.switcher}>
        <summary className={s.switcherSummary}>
          <h1 className={s.symbolTitle}>
            {info.base}
            {info.quote}
            <span className={s.statLabel}> {t(info.contract_type === 1 ? "contract_page.kind_linear" : "contract_page.kind_inverse")}</span>
          </h1>
          <span className="visually-hidden">{t("contract_page.switch_contract")}</span>
        </summary>
        <ul className={s.switcherList} aria-label={t("contract_page.contracts")}>
          {contracts.map((c) => (
            <li key={`${c.contract_type}-${c.symbolName}`}>
              <Link
                to={`/exchange/full-contract/${c.symbolName.replace("/", "_")}`}
                className={s.switcherLink}
                aria-current={c.symbolName === info.symbolName ? "page" : undefined}
              >
                <span>
                  {c.base}
                  {c.quote}
                </span>
                <span>{t(c.contract_type === 1 ? "contract_page.kind_linear" : "contract_page.kind_inverse")}</span>
                <span>{t("contract_page.up_to", { leverage: c.maxLeverage })}</span>
              </Link>
            </li>
          ))}
        </ul>
      </details>
      <div>
        <span className={s.lastPrice} data-testid="last-price">
          {state.lastPrice ? nf.fixed(state.lastPrice, scale) : "--"}
        </span>
      </div>
      <dl className={s.stats}>
        <div className={s.stat}>
          <dt className={s.statLabel}>{t("contract_page.mark_price")}</dt>
          <dd className={s.statValue} data-testid="mark-price">
            {state.markPrice ? nf.fixed(state.markPrice, scale) : "--"}
          </dd>
        </div>
        <div className={s.stat}>
          <dt className={s.statLabel}>{t("contract_page.index_price")}</dt>
          <dd className={s.statValue}>{state.indexPrice ? nf.fixed(state.indexPrice, scale) : "--"}</dd>
        </div>
        <div className={s.stat}>
          <dt className={s.statLabel}>{t("contract_page.funding_countdown")}</dt>
          <dd className={s.statValue} data-testid="funding">
            <span className={clsx(fundingTone)}>{`${nf.fixed(funding, 4)}%`}</span>
            {" / "}
            {state.nextFundingTime ? <FundingCountdown at={state.nextFundingTime} /> : "--"}
          </dd>
        </div>
        <div className={s.stat}>
          <dt className={s.statLabel}>{t("contract_page.open_interest")}</dt>
          <dd className={s.statValue}>
            {nf.display(state.openInterest)} {t("contract_page.cont")}
          </dd>
        </div>
      </dl>
    </div>
  );
}
