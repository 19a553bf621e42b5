import { Link, Outlet, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { PageErrorBoundary } from "~/components/error-page";
import { useIsServed } from "~/lib/use-shell";
import * as s from "~/styles/account-entrust.css";

/**
 * The orders area of spec §2: product tabs (spot, contracts, margin cross and isolated, pulse) over the page, full width
 * so that order tables fit (decision 010). Its pages require the member themselves.
 */
const PRODUCTS = [
  { key: "spot", to: "/account/entrust/spot" },
  { key: "contract_u", to: "/account/entrust/future/u" },
  { key: "contract_coin", to: "/account/entrust/future/coin" },
  { key: "margin_all", to: "/account/entrust/margin-all" },
  { key: "margin_fixed", to: "/account/entrust/margin-fixed" },
  { key: "pulse", to: "/account/entrust/pulse" },
] as const;

export default function EntrustLayout() {
  const { t } = useTranslation();
  const isServed = useIsServed();
  const { pathname } = useLocation();
  // Products whose pages are not built yet are left out, like the menus do.
  const products = PRODUCTS.filter((p) => isServed(p.to));
  return (
    <div className={s.area}>
      <nav className={s.products} aria-label={t("entrust.products_label")}>
        {products.map((p) => (
          <Link key={p.key} to={p.to} className={s.productTab} aria-current={pathname === p.to || pathname.startsWith(`${p.to}/`) ? "page" : undefined}>
            {t(`entrust.products.${p.key}`)}
          </Link>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
