import { Link, NavLink } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import type { NavNode } from "~/lib/nav-tree";
import { useShell } from "~/lib/use-shell";
import { CurrencyMenu } from "./currency-menu";
import * as s from "./header.css";
import { HeaderSearch } from "./header-search";
import { LanguageMenu } from "./language-menu";
import { MemberMenu } from "./member-menu";
import { NotificationBell } from "./notification-bell";
import { ThemeToggle } from "./theme-toggle";
import { useSiteMenu } from "./use-site-menu";

/**
 * The top header of spec §2: logo, menu, search box, login/register, language and currency. On
 * narrow screens everything but the logo (and a member's bell) folds into a panel behind a menu button.
 */
export function Header() {
  const { t } = useTranslation();
  const { site, nav, theme, member } = useShell();
  const menu = useSiteMenu();
  return (
    <>
      <a href="#main" className={s.skipLink}>
        {t("site.skip_to_content")}
      </a>
      <header className={s.header}>
        <Link to="/home/index" className={s.logo} aria-label={t("site.home_link", { site: site.name })}>
          <img src={theme === "theme-day" ? site.logoDay : site.logoNight} alt="" className={s.logoImage} width="28" height="28" />
          <span>{site.shortName}</span>
        </Link>
        {/* Narrow screens: the unread count stays in sight beside the folded menu. */}
        {member ? <NotificationBell placement="beside-menu" /> : null}
        {/* Below the wide layout, the menu button shows and hides the panel (a <details>: works
            without JavaScript); on wide screens the panel is the rest of the header row. */}
        <details className={s.menuToggle} ref={menu.toggleRef}>
          <summary className={s.menuButton} aria-controls="site-menu">
            <MenuIcon />
            <span>{t("header.menu")}</span>
          </summary>
        </details>
        <div id="site-menu" className={s.menuPanel} ref={menu.panelRef}>
          <nav className={s.nav} aria-label={t("header.main_menu")}>
            <ul className={s.navList}>
              {nav.primary.map((node) => (
                <NavEntry key={node.id} node={node} />
              ))}
              {nav.more.length > 0 ? (
                <NavEntry node={{ id: -1, code: "more", path: nav.more[0]!.path, icon: null, external: false, children: nav.more }} />
              ) : null}
            </ul>
          </nav>
          <HeaderSearch />
          <div className={s.actions}>
            {member ? (
              <>
                <NotificationBell placement="row" />
                <MemberMenu />
              </>
            ) : (
              <>
                <Link to="/user/login" className={s.ghostButton}>
                  {t("header.login")}
                </Link>
                <Link to="/user/register" className={s.primaryButton}>
                  {t("header.register")}
                </Link>
              </>
            )}
            <LanguageMenu />
            <CurrencyMenu />
            <ThemeToggle />
          </div>
        </div>
      </header>
    </>
  );
}

function NavEntry({ node }: { node: NavNode }) {
  const { t } = useTranslation();
  const label = t(`nav.${node.code}`);
  const link = node.external ? (
    <a href={node.path} className={s.navLink} rel="noopener noreferrer">
      {label}
    </a>
  ) : (
    <NavLink to={node.path} className={s.navLink} end>
      {label}
      {node.children.length > 0 ? (
        <span className={s.caret} aria-hidden="true">
          ▾
        </span>
      ) : null}
    </NavLink>
  );
  return (
    <li className={s.navItem}>
      {link}
      {node.children.length > 0 ? (
        <ul className={s.subMenu} aria-label={label}>
          {node.children.map((child) => (
            <li key={child.id}>
              {child.external ? (
                <a href={child.path} className={s.subLink} rel="noopener noreferrer">
                  {t(`nav.${child.code}`)}
                </a>
              ) : (
                <Link to={child.path} className={s.subLink}>
                  {t(`nav.${child.code}`)}
                </Link>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function MenuIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M3 6h18M3 12h18M3 18h18" />
    </svg>
  );
}
