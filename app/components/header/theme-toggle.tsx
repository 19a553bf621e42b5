import { useTranslation } from "~/lib/i18n";
import { useShell } from "~/lib/use-shell";
import * as s from "./header.css";
import { PreferenceForm } from "./preference-form";

/** Night/day switch: a one-button form that stores the other theme. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { theme } = useShell();
  const next = theme === "theme-night" ? "theme-day" : "theme-night";
  const label = next === "theme-day" ? t("header.theme_switch_to_day") : t("header.theme_switch_to_night");
  return (
    <PreferenceForm intent="theme">
      <button type="submit" name="value" value={next} className={s.iconButton} aria-label={label} title={label}>
        {next === "theme-day" ? <SunIcon /> : <MoonIcon />}
      </button>
    </PreferenceForm>
  );
}

function SunIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </svg>
  );
}
