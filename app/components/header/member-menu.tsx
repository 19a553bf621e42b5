import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { useIsServed, useShell } from "~/lib/use-shell";
import * as s from "./header.css";

const LINKS = [
  { key: "user_center", to: "/account/center/info" },
  { key: "assets", to: "/account/wallet/assets" },
  { key: "orders", to: "/account/entrust/spot" },
  { key: "deposit", to: "/account/wallet/deposit" },
  { key: "withdrawal", to: "/account/wallet/withdrawal" },
] as const;

/**
 * The member dropdown of spec §2: user id, user center, orders, deposit, withdrawal, logout; and
 * (beyond the spec, as exchanges do) the assets overview, the way into the wallet.
 * It opens on hover and on keyboard focus, and closes 100 ms after the pointer leaves (CSS).
 */
export function MemberMenu() {
  const { t } = useTranslation();
  const { member } = useShell();
  const isServed = useIsServed();
  if (!member) return null;
  return (
    <div className={s.navItem}>
      <Link to="/account/center/info" className={s.iconButton} aria-label={t("header.account_menu", { account: member.label })}>
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <circle cx="12" cy="8" r="4" />
          <path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" />
        </svg>
        <span aria-hidden="true">{member.label}</span>
      </Link>
      <ul className={s.subMenu} style={{ left: "auto", right: 0 }} aria-label={t("header.account")}>
        <li className={s.menuNote}>
          {t("header.uid")}: <span>{member.uid}</span>
        </li>
        {LINKS.filter((link) => isServed(link.to)).map((link) => (
          <li key={link.key}>
            <Link to={link.to} className={s.subLink}>
              {t(`header.member.${link.key}`)}
            </Link>
          </li>
        ))}
        <li>
          <Form method="post" action="/user/logout">
            <button type="submit" className={s.subButton}>
              {t("header.logout")}
            </button>
          </Form>
        </li>
      </ul>
    </div>
  );
}
