import * as z from "zod";
import { define, intString } from "../endpoint";
import { coinField, idempotencyKeyField as idempotencyKey, positiveDecimalField } from "../fields";
import { unsignedDecimalString } from "../money";
import { pageOf } from "./order-history";

/**
 * New-coin and ETF subscriptions and the return application (issue 32, decision 053; spec §2
 * `/newCurrency`, `/etf`, §3 Purchase record and Repay status, §4, §7 `coin/member/returnApplyQuery`
 * and `returnApply`). The spec names no subscription calls: ours are under `earn/subscription/`.
 * Quantities are decimal texts in the coin issued, prices and amounts in the paying coin.
 */

const projectIdField = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "must be a project id such as NXA-R2");
const applicationIdField = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "must be an application id");
const pageNo = intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less"));
const pageSize = intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less"));
/** 1 a new coin, 2 an ETF. */
export const projectTypeField = z.enum(["1", "2"], { message: "must be 1 (new coin) or 2 (ETF)" }).transform((t) => (t === "2" ? 2 : 1) as 1 | 2);

/** Where a project's window stands: not yet open, open, closed and waiting for its allotment, allotted. */
export const PROJECT_PHASES = ["upcoming", "open", "closed", "allotted"] as const;
export type ProjectPhase = (typeof PROJECT_PHASES)[number];

/** A project as members see it. */
export const projectSchema = z.object({
  projectId: z.string(),
  type: z.union([z.literal(1), z.literal(2)]),
  coin: z.string(),
  /** The coin's name (the spec's "currency name"). */
  coinName: z.string(),
  payCoin: z.string(),
  /** In the paying coin per one coin. */
  price: unsignedDecimalString,
  lot: unsignedDecimalString,
  /** Quantity issued. */
  supply: unsignedDecimalString,
  /** What all subscriptions have asked so far. */
  requested: unsignedDecimalString,
  minPerMember: unsignedDecimalString,
  maxPerMember: unsignedDecimalString,
  startAt: z.string(),
  endAt: z.string(),
  allottedAt: z.string().nullable(),
  phase: z.enum(PROJECT_PHASES),
  /** Paid beyond what is won waits for the member's return application (decision 005's variants). */
  returnByApplication: z.boolean(),
});
export type ProjectView = z.infer<typeof projectSchema>;

/**
 * A purchase record's status (spec §3; decision 053): in purchase, purchase completed, allotted
 * (won), allotment completed (a return waiting for the application), returning, returned,
 * already returned (at the allotment).
 */
export const SUBSCRIPTION_STATUSES = ["subscribing", "closed", "won", "allotted", "returning", "returned", "already_returned"] as const;
export type SubscriptionStatusView = (typeof SUBSCRIPTION_STATUSES)[number];

/** A purchase record (spec §3). */
export const subscriptionSchema = z.object({
  subscriptionId: z.string(),
  projectId: z.string(),
  type: z.union([z.literal(1), z.literal(2)]),
  coin: z.string(),
  coinName: z.string(),
  payCoin: z.string(),
  supply: unsignedDecimalString,
  price: unsignedDecimalString,
  startAt: z.string(),
  endAt: z.string(),
  quantity: unsignedDecimalString,
  /** The purchase amount: what was paid for the quantity asked. */
  paid: unsignedDecimalString,
  wonQuantity: unsignedDecimalString,
  wonAmount: unsignedDecimalString,
  /** Paid beyond what was won: returned, or to return. */
  refund: unsignedDecimalString,
  status: z.enum(SUBSCRIPTION_STATUSES),
  createdAt: z.string(),
});
export type SubscriptionView = z.infer<typeof subscriptionSchema>;

/**
 * The member's return application (spec §3 Repay status: 0 returning, 1 returned, other not yet;
 * decision 053): `returnable` what may be applied for now, `returning` what an application waits for.
 */
export const returnApplySchema = z.object({
  status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  returnable: z.array(z.object({ coin: z.string(), amount: unsignedDecimalString, subscriptions: z.number().int() })),
  returning: z.array(z.object({ coin: z.string(), amount: unsignedDecimalString, subscriptions: z.number().int() })),
  applicationId: z.string().nullable(),
});
export type ReturnApplyView = z.infer<typeof returnApplySchema>;

/** An operator's project: the price in the paying coin per coin, quantities in the coin, the window as ISO 8601 times. */
export const projectRulesSchema = z.object({
  projectId: projectIdField,
  type: z.union([z.literal(1), z.literal(2)]),
  coin: coinField,
  payCoin: coinField,
  price: positiveDecimalField,
  lot: positiveDecimalField,
  supply: positiveDecimalField,
  minPerMember: positiveDecimalField,
  maxPerMember: positiveDecimalField,
  startAt: z.string().datetime({ offset: true, message: "must be a time such as 2026-12-01T12:00:00Z" }),
  endAt: z.string().datetime({ offset: true, message: "must be a time such as 2026-12-04T12:00:00Z" }),
  returnByApplication: z.boolean(),
});

/** A pending return application as operators see it. */
export const returnApplicationSchema = z.object({
  applicationId: z.string(),
  /** The member's public UID. */
  uid: z.string(),
  createdAt: z.string(),
  amounts: z.array(z.object({ coin: z.string(), amount: unsignedDecimalString })),
  subscriptions: z.number().int(),
});
export type ReturnApplicationView = z.infer<typeof returnApplicationSchema>;

export const subscriptionEndpoints = {
  /** Projects of one type (1 new coin, 2 ETF), open and upcoming first, then the ended: anyone may read them. */
  subscriptionProjects: define({
    method: "GET",
    path: "earn/subscription/projects/:type",
    params: z.object({ type: projectTypeField }),
    response: z.array(projectSchema),
  }),
  /** One project. */
  subscriptionProject: define({
    method: "GET",
    path: "earn/subscription/project/:projectId",
    params: z.object({ projectId: projectIdField }),
    response: projectSchema,
  }),
  /** What the member has asked in a project so far, and may still ask. */
  subscriptionAsked: define({
    method: "GET",
    path: "earn/subscription/asked/:projectId",
    params: z.object({ projectId: projectIdField }),
    response: z.object({ asked: unsignedDecimalString, left: unsignedDecimalString }),
  }),
  /** A subscription: `quantity` of the project's coin, its price held from the member's funding account until the allotment. */
  subscribe: define({
    method: "POST",
    path: "earn/subscription/subscribe",
    body: z.object({ projectId: projectIdField, quantity: positiveDecimalField, idempotencyKey }),
    response: subscriptionSchema,
  }),
  /** The member's purchase records of one type, newest first, of one status or project or all. */
  subscriptionRecords: define({
    method: "GET",
    path: "earn/subscription/records/:type/:pageNo/:pageSize",
    params: z.object({ type: projectTypeField, pageNo, pageSize }),
    query: z.object({
      status: z.enum(SUBSCRIPTION_STATUSES, { message: `must be one of ${SUBSCRIPTION_STATUSES.join(", ")}` }).optional(),
      projectId: projectIdField.optional(),
    }),
    response: pageOf(subscriptionSchema),
  }),
  /** The member's return application (spec `coin/member/returnApplyQuery`); only in the variants that offer it. */
  returnApplyQuery: define({
    method: "GET",
    path: "coin/member/returnApplyQuery",
    response: returnApplySchema,
  }),
  /** Applies for every return kept for the member (spec `returnApply`); answers the status read again. */
  returnApply: define({
    method: "POST",
    path: "coin/member/returnApply",
    body: z.object({ idempotencyKey }),
    response: returnApplySchema,
  }),
  /** Operator call: every project, with its subscriptions' count. */
  opsSubscriptionProjects: define({
    method: "GET",
    path: "/admin/subscription/projects",
    operator: "markets.read",
    absolute: true,
    response: z.array(projectSchema.extend({ subscriptions: z.number().int() })),
  }),
  /** Operator call: a project, new, or changed before its window opens. */
  adminSubscriptionProject: define({
    method: "POST",
    path: "/admin/subscription/project",
    operator: "markets.change",
    absolute: true,
    body: projectRulesSchema,
    response: projectSchema,
  }),
  /** Operator call: the return applications waiting to be paid, oldest first (finance's desk: money out to members). */
  opsReturnApplications: define({
    method: "GET",
    path: "/admin/subscription/returns",
    operator: "withdrawals.read",
    absolute: true,
    response: z.array(returnApplicationSchema),
  }),
  /** Operator call: pays a return application. */
  adminPayReturn: define({
    method: "POST",
    path: "/admin/subscription/returns/pay",
    operator: "withdrawals.review",
    absolute: true,
    body: z.object({ applicationId: applicationIdField }),
    response: returnApplicationSchema,
  }),
} as const;
