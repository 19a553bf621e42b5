import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { NOTICES_PATH } from "~/lib/notice-links";
import { useLiveNotices } from "../notifications/live-notices";
import * as s from "./header.css";
import * as b from "./notification-bell.css";

/**
 * The member's bell (decision 031): the unread count, linking to the notifications page; live once
 * the page has JavaScript. The header shows it twice, one at a time: in the header row on wide
 * screens, and beside the menu button on narrow ones, where the row is folded into the menu.
 */
export function NotificationBell({ placement }: { placement: "row" | "beside-menu" }) {
  const { t } = useTranslation();
  const { unread } = useLiveNotices();
  return (
    <Link
      to={NOTICES_PATH}
      className={`${s.iconButton} ${b.bell} ${placement === "row" ? b.inRow : b.besideMenu}`}
      aria-label={unread ? t("notices.bell_unread", { unread }) : t("notices.title")}
      data-testid={placement === "row" ? "notification-bell" : "notification-bell-narrow"}
    >
      <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread ? (
        <span className={b.badge} aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}
