import type { ContractInfo } from "#protocol/endpoints/contracts";
import { percentOf } from "~/lib/contract-cost";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "../exchange/exchange.css";

/**
 * The contract's rules beside the order form: what one contract is, the price step, the settlement
 * coin, and the risk limits: each band of position value with its most leverage and maintenance
 * margin rate (the larger the position, the less leverage and the more margin it needs).
 */
export function ContractRules({ info }: { info: ContractInfo }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  return (
    <section aria-labelledby="contract-rules-title" className={s.orderForm}>
      <h3 id="contract-rules-title" className={s.rulesTitle}>
        {t("contract_page.rules_title")}
      </h3>
      <dl className={s.fees}>
        <div className={s.total}>
          <dt>{t("contract_page.rule_size")}</dt>
          <dd>
            {nf.display(info.contractSize, { abbreviate: false })} {info.contractUnit}
          </dd>
        </div>
        <div className={s.total}>
          <dt>{t("contract_page.rule_tick")}</dt>
          <dd>
            {nf.display(info.tickSize, { abbreviate: false })} {info.quote}
          </dd>
        </div>
        <div className={s.total}>
          <dt>{t("contract_page.rule_settle")}</dt>
          <dd>{info.settleCoin}</dd>
        </div>
        <div className={s.total}>
          <dt>{t("contract_page.rule_band")}</dt>
          <dd>± {nf.fixed(percentOf(info.priceBand), 2)}%</dd>
        </div>
      </dl>
      {/* A small table of its own: three short columns fit the panel on a phone, no sideways scrolling. */}
      <table className={s.table}>
        <caption className={s.rulesCaption}>{t("contract_page.risk_limits")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("contract_page.col_tier_value", { coin: info.settleCoin })}</th>
            <th scope="col">{t("contract_page.col_leverage")}</th>
            <th scope="col">{t("contract_page.col_mmr")}</th>
          </tr>
        </thead>
        <tbody>
          {info.tiers.map((tier) => (
            <tr key={tier.maxValue}>
              <td>{nf.display(tier.maxValue, { abbreviate: false })}</td>
              <td>{t("contract_page.leverage_x", { leverage: tier.maxLeverage })}</td>
              <td>{nf.fixed(percentOf(tier.maintenanceRate), 2)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
