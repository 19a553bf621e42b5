import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { DemoLockedNotice, isLockedForDemo } from "~/components/demo-locked";
import { PageErrorBoundary } from "~/components/error-page";
import { useIsServed } from "~/lib/use-shell";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";

/** The account center: side menu of spec §2 and the page beside it. Members only. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine }) => ({ info: await engine.member.info() }));
}

const MENU = [
  { key: "info", to: "/account/center/info" },
  { key: "notifications", to: "/account/center/notifications" },
  { key: "security", to: "/account/center/security" },
  { key: "devices", to: "/account/center/device-management" },
  { key: "kyc", to: "/account/center/kyc" },
  { key: "orders", to: "/account/entrust/spot" },
  { key: "deposit", to: "/account/wallet/deposit" },
  { key: "withdrawal", to: "/account/wallet/withdrawal" },
  { key: "merchant", to: "/account/center/merchant", merchantOnly: true },
] as const;

export default function AccountCenterLayout() {
  const { t } = useTranslation();
  const { info } = useLoaderData<typeof loader>();
  const isServed = useIsServed();
  const { pathname } = useLocation();
  const items = MENU.filter((item) => isServed(item.to) && (!("merchantOnly" in item) || info.is_merchant === 2));
  // The current page's item, as its NavLink tells: its page or one under it (the security settings).
  const here = items.find((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));
  return (
    <div className={s.layout}>
      <div className={s.side}>
        {/* A narrow screen folds the menu behind a button naming this page (a <details>: no
            JavaScript needed). Keyed by the address: a page opened from the menu starts folded. */}
        <details key={pathname} className={s.sideToggle}>
          <summary className={s.sideButton} aria-controls="side-menu">
            <span className={s.sideButtonLabel}>{t("account.menu_label")}</span>
            {here ? <span>{t(`account.menu.${here.key}`)}</span> : null}
          </summary>
        </details>
        <nav id="side-menu" className={s.sideNav} aria-label={t("account.menu_label")}>
          <ul className={s.menu}>
            {items.map((item) => (
              <li key={item.key}>
                <NavLink to={item.to} className={s.menuLink}>
                  {t(`account.menu.${item.key}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className={s.content}>{info.demo && isLockedForDemo(pathname) ? <DemoLockedNotice /> : <Outlet />}</div>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
