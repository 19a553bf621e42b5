import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n";
import { createToastThrottle } from "~/lib/toast-throttle";
import { useShell } from "~/lib/use-shell";
import * as s from "./toaster.css";

// One gate for the whole page: an error toast at most once per 2 s (spec §8).
const errorGate = createToastThrottle();
// A toast's cookie outlives the load that first carries it (a live refresh may interrupt that
// load), so later loads carry the same toast again: each id is shown once per page.
const shownIds = new Set<string>();

/**
 * Shows the toast the server flashed (after a form post or a refused call). Rendered on the
 * server, so it is seen without JavaScript; with JavaScript it closes by itself after 5 s.
 */
export function Toaster() {
  const { t } = useTranslation();
  const { toast } = useShell();
  const [visible, setVisible] = useState(toast);

  useEffect(() => {
    // A reload without a new toast (live data refreshing the page) keeps the one shown.
    if (!toast || shownIds.has(toast.id)) return;
    shownIds.add(toast.id);
    if (toast.type === "error" && !errorGate(Date.now())) return;
    setVisible(toast);
  }, [toast]);

  useEffect(() => {
    if (!visible) return;
    const timer = setTimeout(() => setVisible(null), 5_000);
    return () => clearTimeout(timer);
  }, [visible]);

  return (
    <div className={s.region} role="status" aria-live="polite" data-testid="toast">
      {visible ? (
        <div className={s.toast[visible.type]} key={visible.id}>
          <p className={s.text}>{visible.message ?? (visible.key ? t(visible.key, visible.values) : t("errors.unknown"))}</p>
          <button type="button" className={s.close} onClick={() => setVisible(null)} aria-label={t("common.close")}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
