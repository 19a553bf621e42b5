import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { PageErrorBoundary } from "~/components/error-page";
import { useIsServed } from "~/lib/use-shell";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";

/** The wallet area (spec §2): its side menu and the page beside it. Members only. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async () => null);
}

/** The side menu of spec §2; a page not built yet is left out, never linked to a stub. */
const MENU = [
  { key: "coin", to: "/account/wallet/assets" },
  { key: "contract", to: "/account/wallet/assets?t=4" },
  { key: "transfer", to: "/account/wallet/transfer" },
  { key: "deposit", to: "/account/wallet/deposit" },
  { key: "withdrawal", to: "/account/wallet/withdrawal" },
  { key: "history_deposit", to: "/account/wallet/history-deposit" },
  { key: "history_withdrawal", to: "/account/wallet/history-withdrawal" },
  { key: "address", to: "/account/wallet/address" },
  { key: "bills", to: "/account/wallet/bills" },
] as const;

export default function WalletLayout() {
  const { t } = useTranslation();
  const isServed = useIsServed();
  const { pathname, search } = useLocation();
  const contract = new URLSearchParams(search).get("t") === "4";
  // Both assets entries share a path: the query tells which one is current.
  const current = (to: string) => {
    const [path, query] = to.split("?");
    return pathname === path && (path !== "/account/wallet/assets" || Boolean(query) === contract);
  };
  return (
    <div className={s.layout}>
      <nav className={s.side} aria-label={t("wallet.menu_label")}>
        <ul className={s.menu}>
          {MENU.filter((item) => isServed(item.to.split("?")[0]!)).map((item) => (
            <li key={item.key}>
              <Link to={item.to} className={s.menuLink} aria-current={current(item.to) ? "page" : undefined}>
                {t(`wallet.menu.${item.key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className={s.content}>
        <Outlet />
      </div>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
