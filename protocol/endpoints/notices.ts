import * as z from "zod";
import { define, intString } from "../endpoint";
import { pageOf } from "./order-history";

/**
 * A member's notifications (issue 14; spec §3 "Notification message": isNew, content, orderCode,
 * type, changeUser, serviceType, link_merchant; docs/decisions/031-notifications.md). Not in the
 * spec's list of paths, so named here beside the others (`coin/notice/…`). Each member reads and
 * marks only their own: another member's id is skipped like one that does not exist.
 */

/** What a notification is about, and so which page it links to (`order?serviceType=…&orderCode=…`). */
export const NOTICE_SERVICE_TYPES = ["spot", "contract", "margin", "loan", "deposit", "withdrawal", "kyc", "security", "account", "subscription"] as const;
export type NoticeServiceType = (typeof NOTICE_SERVICE_TYPES)[number];

/** Who made the change a notification tells of: the member, an operator, or the exchange itself (a fill, a credit). */
export const NOTICE_CHANGE_USERS = ["self", "operator", "system"] as const;

/** Every kind of notification, with its service type and who makes the change. */
export const NOTICE_TYPES = {
  order_filled: { serviceType: "spot", changeUser: "system" },
  stop_triggered: { serviceType: "spot", changeUser: "system" },
  /** A contract position liquidated, or reduced by auto-deleveraging (issue 30); `orderCode` is the contract (BTC_USDT). */
  contract_liquidated: { serviceType: "contract", changeUser: "system" },
  contract_deleveraged: { serviceType: "contract", changeUser: "system" },
  /** A contract stop order, take profit or stop loss fired and its order was placed, or was refused (decision 048); `orderCode` is the contract. */
  contract_stop_triggered: { serviceType: "contract", changeUser: "system" },
  contract_stop_failed: { serviceType: "contract", changeUser: "system" },
  /** A margin account's level fell below the warning line, or it was liquidated (issue 31); `orderCode` is the account (all, or BTC_USDT). */
  margin_warning: { serviceType: "margin", changeUser: "system" },
  margin_liquidated: { serviceType: "margin", changeUser: "system" },
  /** A crypto loan reached its margin-call LTV, or was liquidated (decision 051); `orderCode` is the loan. */
  loan_margin_call: { serviceType: "loan", changeUser: "system" },
  loan_liquidated: { serviceType: "loan", changeUser: "system" },
  /**
   * A subscription settled after its project's allotment (decision 053): all asked won; won in part
   * (or not at all) with the rest returned at once; or with the rest waiting for the return
   * application. `orderCode` is the project's type and id (`2_TOP5-R1`).
   */
  subscription_won: { serviceType: "subscription", changeUser: "system" },
  subscription_returned: { serviceType: "subscription", changeUser: "system" },
  subscription_return_waiting: { serviceType: "subscription", changeUser: "system" },
  /** An operator paid the member's return application. */
  subscription_return_paid: { serviceType: "subscription", changeUser: "operator" },
  deposit_credited: { serviceType: "deposit", changeUser: "system" },
  withdrawal_review: { serviceType: "withdrawal", changeUser: "self" },
  withdrawal_approved: { serviceType: "withdrawal", changeUser: "operator" },
  withdrawal_broadcast: { serviceType: "withdrawal", changeUser: "system" },
  withdrawal_completed: { serviceType: "withdrawal", changeUser: "system" },
  withdrawal_rejected: { serviceType: "withdrawal", changeUser: "operator" },
  withdrawal_cancelled: { serviceType: "withdrawal", changeUser: "self" },
  kyc_approved: { serviceType: "kyc", changeUser: "operator" },
  kyc_rejected: { serviceType: "kyc", changeUser: "operator" },
  security_login_password: { serviceType: "security", changeUser: "self" },
  security_trade_password: { serviceType: "security", changeUser: "self" },
  security_anti_code: { serviceType: "security", changeUser: "self" },
  security_email_bound: { serviceType: "security", changeUser: "self" },
  security_phone_bound: { serviceType: "security", changeUser: "self" },
  security_google_bound: { serviceType: "security", changeUser: "self" },
  security_google_reset: { serviceType: "security", changeUser: "self" },
  security_google_reset_support: { serviceType: "security", changeUser: "operator" },
  security_whitelist_on: { serviceType: "security", changeUser: "self" },
  security_whitelist_off: { serviceType: "security", changeUser: "self" },
  support_requested: { serviceType: "account", changeUser: "self" },
} as const satisfies Record<string, { serviceType: NoticeServiceType; changeUser: (typeof NOTICE_CHANGE_USERS)[number] }>;
export type NoticeType = keyof typeof NOTICE_TYPES;

export { NOTICE_STACK } from "../limits";

/** A notification's id as the engine makes it (a number, carried as text). */
export const noticeIdField = z.string().regex(/^[1-9]\d{0,17}$/, "validation.notice_id");

export const noticeSchema = z.object({
  id: z.string(),
  type: z.enum(Object.keys(NOTICE_TYPES) as [NoticeType, ...NoticeType[]]),
  serviceType: z.enum(NOTICE_SERVICE_TYPES),
  /** The order, deposit or withdrawal it is about (null: the member's account). */
  orderCode: z.string().nullable(),
  /** The text, in the request's language. */
  content: z.string(),
  /** Not read yet. */
  isNew: z.boolean(),
  changeUser: z.enum(NOTICE_CHANGE_USERS),
  createdAt: z.string(),
});
export type Notice = z.output<typeof noticeSchema>;

export const noticeEndpoints = {
  /** The member's notifications, newest first (only the unread ones with `unread=1`), and how many are unread. */
  noticeList: define({
    method: "GET",
    path: "coin/notice/list",
    query: z.object({
      pageNo: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less")).optional(),
      pageSize: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less")).optional(),
      unread: z.enum(["0", "1"], { message: "must be 0 or 1" }).optional(),
    }),
    response: pageOf(noticeSchema).extend({ unread: z.number().int() }),
  }),
  /**
   * How many are unread, the member's newest id, and (with `after`, the newest id the page has
   * shown) the unread ones after it: the newest 4 at most (spec §9), oldest first, as a stack
   * shows them.
   */
  noticeUnread: define({
    method: "GET",
    path: "coin/notice/unread",
    query: z.object({ after: z.union([z.literal("0"), noticeIdField]).optional() }),
    response: z.object({ unread: z.number().int(), lastId: z.string().nullable(), latest: z.array(noticeSchema) }),
  }),
  /** Marks some of the member's notifications read (`ids`), or all of them (`all`); answers how many are still unread. */
  noticeRead: define({
    method: "POST",
    path: "coin/notice/read",
    body: z
      .object({
        ids: z.array(noticeIdField).min(1, "validation.notice_read").max(100, "validation.notice_read").optional(),
        all: z.boolean().optional(),
      })
      .strict()
      .refine((b) => (b.ids !== undefined) !== (b.all === true), { message: "validation.notice_read" }),
    response: z.object({ unread: z.number().int() }),
  }),
} as const;
