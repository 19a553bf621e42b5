import { endpoints } from "../../protocol/endpoints";
import type { NoticeService } from "../notices/notice-service";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";

/**
 * A member's notifications (issue 14; docs/decisions/031-notifications.md): each member reads and
 * marks their own only, in the language of the request. The demo member's are its own like any
 * member's (marking them read changes no security setting).
 */
export function registerNoticeRoutes(api: ApiContext, notices: NoticeService): void {
  memberEndpoint(api, endpoints.noticeList, ({ query, memberId, lang }) =>
    notices.list(memberId, lang, { pageNo: query.pageNo ?? 1, pageSize: query.pageSize ?? 20 }, query.unread === "1"),
  );
  memberEndpoint(api, endpoints.noticeUnread, ({ query, memberId, lang }) => notices.unread(memberId, lang, query.after));
  memberEndpoint(api, endpoints.noticeRead, ({ body, memberId, now }) => notices.markRead(memberId, body, now));
}
