import { useTranslation } from "~/lib/i18n";
import { useShell } from "~/lib/use-shell";
import * as s from "./header.css";
import * as m from "./menu.css";
import { PreferenceForm } from "./preference-form";
import { useDismissableDetails } from "./use-dismissable";

/** Display-currency switcher (spec §1): prices are shown in the chosen currency. */
export function CurrencyMenu() {
  const { t } = useTranslation();
  const { currencies, currency } = useShell();
  const ref = useDismissableDetails();
  return (
    <details className={m.details} ref={ref}>
      <summary className={s.iconButton} aria-label={t("header.currency_current", { currency: `${currency.quote} ${currency.symbol}` })}>
        <span aria-hidden="true">
          {currency.quote} {currency.symbol}
        </span>
      </summary>
      <div className={m.panel}>
        <p className={m.heading} id="currency-menu-heading">
          {t("header.currency")}
        </p>
        <PreferenceForm intent="currency">
          <ul className={m.list} aria-labelledby="currency-menu-heading">
            {currencies.map((option) => (
              <li key={option.code}>
                <button type="submit" name="value" value={option.code} className={m.option} aria-current={option.code === currency.code ? "true" : undefined}>
                  <span>{option.quote}</span>
                  <span className={m.muted}>{option.symbol}</span>
                </button>
              </li>
            ))}
          </ul>
        </PreferenceForm>
      </div>
    </details>
  );
}
