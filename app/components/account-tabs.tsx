import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { formStyles } from "./forms";

/** E-mail / phone tabs: plain links, so they work without JavaScript. */
export function AccountTabs({ current, base }: { current: string; base: string }) {
  const { t } = useTranslation();
  return (
    <nav className={formStyles.tabs} aria-label={t("auth.account_type")}>
      <Link to={`${base}?type=email`} className={formStyles.tab} aria-current={current === "email" ? "page" : undefined} replace>
        {t("auth.email")}
      </Link>
      <Link to={`${base}?type=phone`} className={formStyles.tab} aria-current={current === "phone" ? "page" : undefined} replace>
        {t("auth.phone")}
      </Link>
    </nav>
  );
}
