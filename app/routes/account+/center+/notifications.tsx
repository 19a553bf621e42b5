import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { Pager } from "~/components/data-table";
import { PageErrorBoundary } from "~/components/error-page";
import { formatDateTime } from "~/lib/dates";
import { NOTICES_PATH, noticeHref } from "~/lib/notice-links";
import { pageTitle, useShell } from "~/lib/use-shell";
import { loadNoticesPage, noticesAction } from "~/services/account/notices.server";
import { withMember } from "~/services/engine/route.server";
import * as s from "~/styles/account-center.css";
import * as n from "./notifications.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "notices.title") }];

/** The member's notifications (issue 14, decision 031): all or the unread, newest first, each marked read by a form. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadNoticesPage(engine));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => noticesAction(engine));
}

export default function NotificationsPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { page, unreadOnly } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const here = `${NOTICES_PATH}${search}`;
  const filterHref = (unread: boolean) => (unread ? `${NOTICES_PATH}?filter=unread` : NOTICES_PATH);
  return (
    <section className={s.card} aria-labelledby="notices-title">
      <div className={n.head}>
        <div>
          <h1 id="notices-title" className={s.title} style={{ marginBottom: 4 }}>
            {t("notices.title")}
          </h1>
          <p className={s.muted}>{t("notices.unread_count", { unread: page.unread })}</p>
        </div>
        <div className={n.filters}>
          <nav className={n.filters} aria-label={t("notices.filter_label")}>
            <Link to={filterHref(false)} className={n.filter} aria-current={unreadOnly ? undefined : "page"}>
              {t("notices.filter_all")}
            </Link>
            <Link to={filterHref(true)} className={n.filter} aria-current={unreadOnly ? "page" : undefined}>
              {t("notices.filter_unread")}
            </Link>
          </nav>
          {page.unread > 0 ? (
            <Form method="post">
              <input type="hidden" name="redirectTo" value={here} />
              <button type="submit" name="intent" value="read-all" className={s.action}>
                {t("notices.read_all")}
              </button>
            </Form>
          ) : null}
        </div>
      </div>
      {page.records.length === 0 ? (
        <p className={s.muted}>{t(unreadOnly ? "notices.empty_unread" : "notices.empty")}</p>
      ) : (
        <ul className={n.list} aria-labelledby="notices-title" data-testid="notice-list">
          {page.records.map((notice) => (
            <li key={notice.id} className={n.item}>
              <span className={notice.isNew ? n.dot : undefined} aria-hidden="true" />
              <div className={n.text}>
                <Link to={noticeHref(notice)} className={`${n.content} ${notice.isNew ? "" : n.read}`} id={`notice-${notice.id}`}>
                  {notice.isNew ? <span className="visually-hidden">{t("notices.new")}: </span> : null}
                  {notice.content}
                </Link>
                <p className={n.meta}>
                  {t(`notices.service.${notice.serviceType}`)} · <time dateTime={notice.createdAt}>{formatDateTime(notice.createdAt, lang)}</time>
                </p>
              </div>
              {notice.isNew ? (
                <Form method="post">
                  <input type="hidden" name="id" value={notice.id} />
                  <input type="hidden" name="redirectTo" value={here} />
                  <button type="submit" name="intent" value="read" className={s.action} aria-describedby={`notice-${notice.id}`}>
                    {t("notices.read")}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Pager
        current={page.current}
        pages={page.pages}
        total={page.total}
        hrefFor={(p) => `${NOTICES_PATH}?${new URLSearchParams({ ...(unreadOnly ? { filter: "unread" } : {}), page: String(p) })}`}
      />
    </section>
  );
}

export const ErrorBoundary = PageErrorBoundary;
