import type { Notice, NoticeServiceType } from "#protocol/endpoints/notices";

/**
 * The named routes notifications link to (spec §2 "Named routes used by notifications: merchant
 * and order, each with params serviceType and orderCode"; decision 031): a notification links to
 * `/order?serviceType=…&orderCode=…`, and the route sends the member to the page that shows it.
 * `merchant` takes the same params; with no merchant pages built, it resolves as `order` does
 * (the order or wallet page of the member's own). Pure, so links and routes agree.
 */
export function noticeHref(notice: { serviceType: NoticeServiceType; orderCode: string | null }): string {
  const query = new URLSearchParams({ serviceType: notice.serviceType, ...(notice.orderCode ? { orderCode: notice.orderCode } : {}) });
  return `/order?${query}`;
}

/** Where a named route's params lead: the order's page, the wallet's history, the KYC, security or account page; else the notifications. */
export function namedRouteTarget(serviceType: string | null, orderCode: string | null): string {
  const code = orderCode && /^[A-Za-z0-9_-]{1,64}$/.test(orderCode) ? orderCode : null;
  switch (serviceType) {
    case "spot":
      return code ? `/account/entrust/spot/${code}` : "/account/entrust/spot";
    case "contract":
      // Its code is the contract (BTC_USDT): its page shows the position, or that none is left.
      return code ? `/exchange/full-contract/${code}` : "/account/entrust/future/u";
    case "margin":
      // Its code is the account: `all` (cross) or an isolated symbol (BTC_USDT).
      return code && code !== "all" ? `/account/wallet/margin?account=${code}` : "/account/wallet/margin";
    case "loan":
      // Its code is the loan: the member's loans page shows it, open or closed.
      return code ? `/my-loan?loan=${code}` : "/my-loan";
    case "deposit":
      return "/account/wallet/history-deposit";
    case "withdrawal":
      return "/account/wallet/history-withdrawal";
    case "kyc":
      return "/account/center/kyc";
    case "security":
      return "/account/center/security";
    case "account":
      return "/account/center/info";
    case "subscription":
      // Its code is the project's type and id (`2_TOP5-R1`): the records of that type.
      return code?.startsWith("2_") ? "/etf/list" : "/newCurrency/list";
    default:
      return NOTICES_PATH;
  }
}

/** The member's notifications page. */
export const NOTICES_PATH = "/account/center/notifications";

/** The live stack's read (a resource route beside the page): see `loadLiveNotices`. */
export const LIVE_NOTICES_PATH = `${NOTICES_PATH}/live`;

/** What the live read answers: a ticket for the member's topic, the unread count, and what came after the id asked. */
export type LiveNoticesAnswer =
  | {
      topic: string;
      ticket: string;
      unread: number;
      lastId: string | null;
      latest: Notice[];
    }
  /** The session ended before the read arrived: nothing to follow. */
  | { signedOut: true }
  /** The read failed (the engine unreachable): tried again on the next push or page. */
  | { unavailable: true };

/** How often a page that reads the notifications instead of following them reads them (ms). */
export const NOTICE_READ_MS = 30_000;

/**
 * Whether a page reads the member's notifications every `NOTICE_READ_MS` instead of following
 * them on the page's socket (decision 037): the member's own pages (`/account/…`: forms and
 * tables, none with live data) do not load socket.io for the bell alone; the market pages (home,
 * markets, trading) are live, and so is any page once the socket is open.
 */
export function readsNoticesByTurns(pathname: string): boolean {
  return pathname === "/account" || pathname.startsWith("/account/");
}
