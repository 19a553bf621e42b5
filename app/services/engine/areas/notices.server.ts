import { endpoints } from "#protocol/endpoints";
import type { EngineCall } from "../call.server";

/** The member's notifications (decision 031): texts come in the request's language. */
export function noticesArea(call: EngineCall) {
  return {
    /** A page of them, newest first (only the unread with `unreadOnly`), and how many are unread. */
    list: (page: { pageNo: number; pageSize: number; unreadOnly?: boolean }) =>
      call(endpoints.noticeList, {
        query: { pageNo: String(page.pageNo), pageSize: String(page.pageSize), ...(page.unreadOnly ? { unread: "1" } : {}) },
      }),
    /** How many are unread, the newest id, and the unread ones after `after` (the newest four, oldest first). */
    unread: (after?: string) => call(endpoints.noticeUnread, { query: after ? { after } : {} }),
    /** Marks some read, or all of them. */
    read: (which: { ids: string[] } | { all: true }) => call(endpoints.noticeRead, { body: which }),
  };
}
