import type { MetaFunction } from "@remix-run/node";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle, useShell } from "~/lib/use-shell";
import * as s from "./aboutus.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "about.title") }];

const VALUES = ["security", "transparency", "service"] as const;

/** Spec §2 /aboutus: who runs the exchange, its figures and how to reach it (from configuration). */
export default function AboutPage() {
  const { t } = useTranslation();
  const { site } = useShell();
  const nf = useNumberFormat();
  return (
    <div className={s.page}>
      <h1 className={s.title}>{t("about.heading", { site: site.name })}</h1>
      <p className={s.lead}>{t("about.lead", { site: site.name })}</p>
      <p>{t("about.figures", { reserve: nf.display(site.reserveBtc), countries: site.countries })}</p>
      <ul className={s.values}>
        {VALUES.map((value) => (
          <li key={value} className={s.value}>
            <h2 className={s.valueTitle}>{t(`about.values.${value}.title`)}</h2>
            <p className={s.valueText}>{t(`about.values.${value}.text`)}</p>
          </li>
        ))}
      </ul>
      <p>
        {t("about.contact")}{" "}
        <a href={`mailto:${site.supportEmail}`} className={s.link}>
          {site.supportEmail}
        </a>
      </p>
    </div>
  );
}
