import { useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n";
import { CHUNK_LOAD_TIMEOUT_MS, hrefOf } from "~/lib/load-failure";
import * as s from "./load-error.css";

/**
 * The load error of spec §8 (decision 033): a page change (the next page's script and its data)
 * that has not finished after the chunk load timeout is announced, with a plain link that loads
 * the page in full (no script needed) and a way to put the message away. It goes when the page
 * change ends. Without JavaScript there are no page changes in the page, so nothing to show.
 */
export function LoadError() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  // A page change is known by its location's key (a form post that then loads the same page keeps it).
  const pending = navigation.state === "idle" ? undefined : navigation.location;
  const pendingKey = pending?.key;
  const [lateKey, setLateKey] = useState<string | null>(null);

  useEffect(() => {
    // Idle again: forget it (going back to a page reuses its key).
    if (!pendingKey) {
      setLateKey(null);
      return;
    }
    const timer = setTimeout(() => setLateKey(pendingKey), CHUNK_LOAD_TIMEOUT_MS);
    // While the change is under way (and its timer runs) the page says so: a progress cursor
    // (global.css.ts), and a mark the load-error tests wait for before moving the clock.
    const root = document.documentElement;
    root.dataset.pageChange = "pending";
    return () => {
      clearTimeout(timer);
      delete root.dataset.pageChange;
    };
  }, [pendingKey]);

  if (!pending || lateKey !== pendingKey) return null;
  return (
    <div className={s.alert} role="alert" data-testid="load-error">
      <div className={s.body}>
        <p className={s.title}>{t("errors.load_title")}</p>
        <p className={s.text}>{t("errors.load_text")}</p>
        {/* A plain link, not a <Link>: the browser loads the whole page, which needs no script chunk. */}
        <a href={hrefOf(pending)} className={s.reload}>
          {t("errors.load_reload")}
        </a>
      </div>
      <button type="button" className={s.dismiss} onClick={() => setLateKey(null)} aria-label={t("errors.load_dismiss")}>
        ×
      </button>
    </div>
  );
}
