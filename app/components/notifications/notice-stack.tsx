import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { noticeHref } from "~/lib/notice-links";
import { useHydrated } from "~/lib/use-hydrated";
import { useShell } from "~/lib/use-shell";
import { useLiveNotices } from "./live-notices";
import * as s from "./notice-stack.css";

/**
 * The stack of new notifications (spec §4: at most four; a fifth closes the oldest), each linking
 * to its order or page through the named route `order`. A polite live region, there whenever a
 * member is signed in, so what is added is read out. Closing: a button with JavaScript; without,
 * a link to this page again (the stack shows only what came since the last page).
 */
export function NoticeStack() {
  const { t } = useTranslation();
  const { member } = useShell();
  const { stack, close } = useLiveNotices();
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  if (!member) return null;
  return (
    <section className={s.region} aria-label={t("notices.stack_label")}>
      <div role="status" aria-live="polite">
        {stack.length ? (
          <ul className={s.list} data-testid="notice-stack">
            {stack.map((notice) => (
              <li key={notice.id} className={s.notice}>
                <div className={s.body}>
                  <p className={s.kind}>{t(`notices.service.${notice.serviceType}`)}</p>
                  <Link to={noticeHref(notice)} className={s.link}>
                    {notice.content}
                  </Link>
                </div>
                {hydrated ? (
                  <button type="button" className={s.close} onClick={() => close(notice.id)} aria-label={t("notices.close")}>
                    ×
                  </button>
                ) : (
                  <a href={`${pathname}${search}`} className={s.close} aria-label={t("notices.close")}>
                    ×
                  </a>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
