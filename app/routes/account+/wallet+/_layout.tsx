import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { PageErrorBoundary } from "~/components/error-page";
import { useIsServed } from "~/lib/use-shell";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";

/** The wallet area (spec §2): its side menu and the page beside it. Members only. */
export function loader(args: LoaderFunctionArgs) {
  // An empty object, not null: with single fetch on, Remix answers a `?_data=` request for a
  // loader that returned null with a 500.
  return withMember(args, async () => ({}));
}

/** The side menu of spec §2; a page not built yet is left out, never linked to a stub. */
const MENU = [
  { key: "coin", to: "/account/wallet/assets" },
  { key: "contract", to: "/account/wallet/assets?t=4" },
  { key: "margin", to: "/account/wallet/margin" },
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
  const here = MENU.find((item) => current(item.to));
  return (
    <div className={s.layout}>
      <div className={s.side}>
        {/* A narrow screen folds the menu behind a button naming this page (a <details>: no
            JavaScript needed). Keyed by the address: a page opened from the menu starts folded. */}
        <details key={pathname + search} className={s.sideToggle}>
          <summary className={s.sideButton} aria-controls="side-menu">
            <span className={s.sideButtonLabel}>{t("wallet.menu_label")}</span>
            {here ? <span>{t(`wallet.menu.${here.key}`)}</span> : null}
          </summary>
        </details>
        <nav id="side-menu" className={s.sideNav} aria-label={t("wallet.menu_label")}>
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
      </div>
      <div className={s.content}>
        <Outlet />
      </div>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
