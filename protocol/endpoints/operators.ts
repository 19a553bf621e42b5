import * as z from "zod";
import { define } from "../endpoint";
import { pageCursorField } from "../fields";
import {
  auditRowSchema,
  operatorEmailField,
  operatorNameField,
  operatorPasswordField,
  operatorRoleField,
  operatorSelfSchema,
  operatorViewSchema,
  totpField,
} from "../operators";

/** Millisecond times in a query string. */
const msField = z
  .string()
  .regex(/^\d{1,15}$/, "ops.errors.time")
  .transform(Number)
  .optional();

const sessionSchema = z.object({ token: z.string(), expiresAt: z.string(), self: operatorSelfSchema });
const loginAnswerSchema = z.union([
  z.object({ session: sessionSchema }),
  z.object({ setup: z.object({ ticket: z.string(), secret: z.string(), uri: z.string() }) }),
]);

export const auditQuerySchema = z.object({
  operator: z.string().trim().max(60).optional(),
  action: z.string().trim().max(60).optional(),
  target: z.string().trim().max(80).optional(),
  from: msField,
  to: msField,
  /** The id the previous page ended at. */
  before: pageCursorField.optional(),
});

/** An outbox message as the console lists it; `body` only where nothing leaves the machine (the dev mailbox). */
const outboxRowSchema = z.object({
  id: z.string(),
  channel: z.enum(["email", "sms"]),
  destination: z.string(),
  subject: z.string(),
  createdAt: z.string(),
  state: z.enum(["waiting", "delivered", "failed"]),
  deliveredAt: z.string().nullable(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  body: z.string().nullable(),
});
export type OutboxRow = z.infer<typeof outboxRowSchema>;

export const outboxQuerySchema = z.object({
  destination: z.string().trim().min(3, "ops.outbox.destination").max(270, "ops.outbox.destination").optional(),
  state: z.enum(["waiting", "delivered", "failed"], { message: "ops.errors.invalid" }).optional(),
  before: pageCursorField.optional(),
});

/**
 * The operator API (issue 29, decision 043): the console and the CLI call these and the other
 * `operator` endpoints; each names the permission its caller's role needs. Login and its set-up
 * step need none (they make the session), the session's end needs only the session.
 */
export const operatorEndpoints = {
  opsLogin: define({
    method: "POST",
    path: "/admin/session",
    absolute: true,
    body: z.object({ email: operatorEmailField, password: z.string().min(1, "ops.errors.password").max(128), totp: totpField.optional() }),
    response: loginAnswerSchema,
  }),
  opsCompleteSetup: define({
    method: "POST",
    path: "/admin/session/setup",
    absolute: true,
    body: z.object({ ticket: z.string().min(10).max(100), totp: totpField }),
    response: loginAnswerSchema,
  }),
  opsLogout: define({ method: "POST", path: "/admin/session/end", absolute: true, response: z.null() }),
  opsSelf: define({ method: "GET", path: "/admin/session/self", absolute: true, operator: "dashboard.read", response: operatorSelfSchema }),
  opsOperators: define({ method: "GET", path: "/admin/operators", absolute: true, operator: "operators.manage", response: z.array(operatorViewSchema) }),
  opsOperatorAdd: define({
    method: "POST",
    path: "/admin/operators/add",
    absolute: true,
    operator: "operators.manage",
    body: z.object({ email: operatorEmailField, name: operatorNameField, role: operatorRoleField, password: operatorPasswordField }),
    response: operatorViewSchema,
  }),
  opsOperatorUpdate: define({
    method: "POST",
    path: "/admin/operators/update",
    absolute: true,
    operator: "operators.manage",
    body: z
      .object({
        id: z.string().regex(/^\d{1,18}$/, "ops.errors.operator"),
        role: operatorRoleField.optional(),
        disabled: z.boolean().optional(),
        resetTotp: z.boolean().optional(),
      })
      .refine((v) => v.role !== undefined || v.disabled !== undefined || v.resetTotp === true, { message: "ops.errors.no_change" }),
    response: operatorViewSchema,
  }),
  opsAudit: define({
    method: "GET",
    path: "/admin/audit",
    absolute: true,
    operator: "audit.read",
    query: auditQuerySchema,
    response: z.object({ rows: z.array(auditRowSchema), next: z.string().nullable() }),
  }),
  opsAuditCsv: define({
    method: "GET",
    path: "/admin/audit/csv",
    absolute: true,
    operator: "audit.read",
    query: auditQuerySchema.omit({ before: true }),
    response: z.object({ csv: z.string(), truncated: z.boolean() }),
  }),
  opsDashboard: define({
    method: "GET",
    path: "/admin/dashboard",
    absolute: true,
    operator: "dashboard.read",
    response: z.object({
      startedAt: z.string(),
      journalSeq: z.number(),
      projectedSeq: z.number(),
      lastSnapshotSeq: z.number(),
      lastSnapshotAt: z.string().nullable(),
      outboxWaiting: z.number(),
      withdrawalsInReview: z.number(),
      kycInReview: z.number(),
      simulator: z.boolean(),
      members: z.number(),
    }),
  }),
  opsOutbox: define({
    method: "GET",
    path: "/admin/outbox",
    absolute: true,
    operator: "mailbox.read",
    query: outboxQuerySchema,
    response: z.object({ rows: z.array(outboxRowSchema), next: z.string().nullable(), bodiesShown: z.boolean() }),
  }),
  opsKycQueue: define({
    method: "GET",
    path: "/admin/kyc/queue",
    absolute: true,
    operator: "kyc.read",
    response: z.array(
      z.object({
        uid: z.string(),
        account: z.string(),
        phone: z.string(),
        submittedAt: z.string(),
        images: z.array(z.object({ id: z.string(), kind: z.enum(["front", "back", "hand"]) })),
      }),
    ),
  }),
  opsKycImage: define({
    method: "GET",
    path: "/admin/kyc/image/:id",
    absolute: true,
    operator: "kyc.read",
    params: z.object({ id: z.string().regex(/^\d{1,18}$/, "ops.errors.image") }),
    response: z.object({ mime: z.string(), base64: z.string() }),
  }),
} as const;
