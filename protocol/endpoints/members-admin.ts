import * as z from "zod";
import { define } from "../endpoint";
import { memberUidField } from "../fields";

/**
 * Members as operators see them (issue 29): the search, a member's page, freezing and the reset of
 * a lost authenticator. Each change states the operator's reason, which the audit row keeps.
 */

const reasonField = z.string().trim().min(5, "ops.errors.member_reason").max(300, "ops.errors.reason_long");

const memberSummarySchema = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  createdAt: z.string(),
  frozenAt: z.string().nullable(),
  googleBound: z.boolean(),
  /** 0 not submitted, 1 in review, 2 approved, 3 rejected (`KYC_STATUS`). */
  kyc: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
});
export type MemberSummary = z.infer<typeof memberSummarySchema>;

const memberOrderSchema = z.object({
  orderId: z.string(),
  symbol: z.string(),
  side: z.enum(["buy", "sell"]),
  type: z.string(),
  status: z.string(),
  price: z.string().nullable(),
  quantity: z.string().nullable(),
  money: z.string().nullable(),
  filled: z.string(),
  createdAt: z.string(),
});

const memberProfileSchema = memberSummarySchema.extend({
  frozenReason: z.string().nullable(),
  lang: z.string().nullable(),
  invitedBy: z.string().nullable(),
  tradePasswordSet: z.boolean(),
  googlePending: z.boolean(),
  /** Every account and coin with a balance: what is free and what orders or withdrawals hold. */
  holdings: z.array(z.object({ account: z.string(), coin: z.string(), available: z.string(), held: z.string() })),
  openOrders: z.array(memberOrderSchema),
  recentOrders: z.array(memberOrderSchema),
  devices: z.array(z.object({ name: z.string(), ip: z.string(), userAgent: z.string(), createdAt: z.string(), lastSeenAt: z.string() })),
  logins: z.array(z.object({ ip: z.string(), device: z.string(), userAgent: z.string(), at: z.string() })),
});
export type MemberProfile = z.infer<typeof memberProfileSchema>;

/** The most members a search (or the newest list) answers; the console asks for a narrower search at this count. */
export const MEMBER_SEARCH_ROWS = 50;

export const membersAdminEndpoints = {
  /** At most `MEMBER_SEARCH_ROWS` members, newest first: a search that finds as many says so. */
  opsMembers: define({
    method: "GET",
    path: "/admin/members",
    absolute: true,
    operator: "members.read",
    /** A uid, the start of an e-mail, or the last digits of a phone number; none: the newest members. */
    query: z.object({ q: z.string().trim().max(100, "ops.errors.search_long").optional() }),
    response: z.array(memberSummarySchema),
  }),
  opsMember: define({
    method: "GET",
    path: "/admin/members/:uid",
    absolute: true,
    operator: "members.read",
    params: z.object({ uid: memberUidField }),
    response: memberProfileSchema,
  }),
  opsMemberFreeze: define({
    method: "POST",
    path: "/admin/members/freeze",
    absolute: true,
    operator: "members.freeze",
    body: z.object({ uid: memberUidField, frozen: z.boolean(), reason: reasonField }),
    response: memberSummarySchema,
  }),
  opsMemberResetGoogle: define({
    method: "POST",
    path: "/admin/members/reset-2fa",
    absolute: true,
    operator: "members.reset_2fa",
    body: z.object({ uid: memberUidField, reason: reasonField }),
    response: memberSummarySchema,
  }),
} as const;
