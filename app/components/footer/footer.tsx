import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { useShell } from "~/lib/use-shell";
import * as s from "./footer.css";

/** Footer from the configuration tables (links, social links, support address). */
export function Footer() {
  const { t } = useTranslation();
  const { site, footer, year } = useShell();
  return (
    <footer className={s.footer}>
      <div className={s.inner}>
        <div className={s.columns}>
          <section aria-labelledby="footer-brand">
            <h2 id="footer-brand" className={s.brand}>
              {site.name}
            </h2>
            <p>{t("footer.tagline")}</p>
            <p>
              {t("footer.contact")}: <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>
            </p>
          </section>
          {footer.map((group) => (
            <section key={group.group} aria-labelledby={`footer-${group.group}`}>
              <h2 id={`footer-${group.group}`} className={s.groupTitle}>
                {t(`footer.groups.${group.group}`)}
              </h2>
              <ul className={s.list}>
                {group.links.map((link) => (
                  <li key={link.code}>
                    <Link to={link.path}>{t(`footer.links.${link.code}`)}</Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          {site.socialLinks.length > 0 ? (
            <section aria-labelledby="footer-community">
              <h2 id="footer-community" className={s.groupTitle}>
                {t("footer.community")}
              </h2>
              <ul className={s.social}>
                {site.socialLinks.map((link) => (
                  <li key={link.url}>
                    <a href={link.url} className={s.socialLink} rel="noopener noreferrer" target="_blank">
                      {link.name}
                      <span className="visually-hidden"> ({t("common.opens_new_window")})</span>
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
        <div className={s.legal}>
          <p>{t("footer.risk_warning")}</p>
          <p>{t("footer.copyright", { year, site: site.name })}</p>
        </div>
      </div>
    </footer>
  );
}
