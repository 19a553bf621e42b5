import { clsx } from "~/lib/clsx";
import { useTranslation } from "~/lib/i18n";
import { useShell } from "~/lib/use-shell";
import * as s from "./header.css";
import * as m from "./menu.css";
import { PreferenceForm } from "./preference-form";
import { useDismissableDetails } from "./use-dismissable";

/** Language switcher: one submit button per language (works without JavaScript). */
export function LanguageMenu() {
  const { t } = useTranslation();
  const { languages, lang } = useShell();
  const ref = useDismissableDetails();
  const current = languages.find((l) => l.value === lang);
  return (
    <details className={m.details} ref={ref}>
      <summary className={s.iconButton} aria-label={t("header.language_current", { language: current?.label ?? lang })}>
        <GlobeIcon />
        <span aria-hidden="true">{current?.text ?? lang}</span>
      </summary>
      <div className={m.panel} style={{ width: "min(632px, 92vw)" }}>
        <p className={m.heading} id="language-menu-heading">
          {t("header.language")}
        </p>
        <PreferenceForm intent="language" reloadDocument>
          <ul className={clsx(m.list, m.grid)} aria-labelledby="language-menu-heading">
            {languages.map((language) => (
              <li key={language.value}>
                <button
                  type="submit"
                  name="value"
                  value={language.value}
                  lang={language.tag}
                  className={m.option}
                  aria-current={language.value === lang ? "true" : undefined}
                >
                  {language.label}
                </button>
              </li>
            ))}
          </ul>
        </PreferenceForm>
      </div>
    </details>
  );
}

function GlobeIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <circle cx="12" cy="12" r="10" />
      <path d="M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20" />
    </svg>
  );
}
