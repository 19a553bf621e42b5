import * as z from "zod";

/**
 * Operators and what each role may do (issue 29, decision 043). Operators are not members: their
 * own accounts, one role each, and one table of permissions the engine enforces on every operator
 * call and the console reads to show only the pages a role reaches. `admin` may do everything;
 * every other role holds the least it needs for its desk.
 */
export const OPERATOR_ROLES = ["admin", "support", "compliance", "finance", "markets", "arbiter"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** What an operator call or console page needs. `.read` permissions never change anything. */
export const OPERATOR_PERMISSIONS = [
  "dashboard.read",
  "members.read",
  "members.freeze",
  "members.reset_2fa",
  "kyc.read",
  "kyc.review",
  "withdrawals.read",
  "withdrawals.review",
  "deposits.read",
  "deposits.credit",
  "markets.read",
  "markets.change",
  "config.read",
  "config.change",
  "chain.send",
  "mailbox.read",
  "operators.manage",
  "audit.read",
] as const;
export type OperatorPermission = (typeof OPERATOR_PERMISSIONS)[number];

/**
 * The role table. Support answers members (reads their accounts and mail, resets a lost 2FA);
 * the dev mailbox (every member's codes) is admin's only; compliance decides identities and freezes (and reads the audit log); finance moves money in and
 * out (withdrawal review, deposit credit, the simulated chains' outside payments); markets lists and
 * halts markets and keeps the site's listing tables (navigation, footer, languages, display
 * currencies: decision 044); the arbiter (OTC appeals, when OTC lands) reads members. Only admin manages
 * operators.
 */
const GRANTS: Record<Exclude<OperatorRole, "admin">, readonly OperatorPermission[]> = {
  support: ["dashboard.read", "members.read", "members.reset_2fa", "kyc.read", "withdrawals.read", "deposits.read"],
  compliance: ["dashboard.read", "members.read", "members.freeze", "kyc.read", "kyc.review", "withdrawals.read", "deposits.read", "audit.read"],
  finance: ["dashboard.read", "members.read", "withdrawals.read", "withdrawals.review", "deposits.read", "deposits.credit", "chain.send", "markets.read"],
  markets: ["dashboard.read", "markets.read", "markets.change", "config.read", "config.change"],
  arbiter: ["dashboard.read", "members.read"],
};

/** Whether `role` may do what `permission` names. */
export function roleMay(role: OperatorRole, permission: OperatorPermission): boolean {
  return role === "admin" || GRANTS[role].includes(permission);
}

/** Every permission of a role, in the table's order. */
export function permissionsOf(role: OperatorRole): OperatorPermission[] {
  return OPERATOR_PERMISSIONS.filter((permission) => roleMay(role, permission));
}

/** How long an operator's session lives without a request, and at most (decision 043). */
export const OPERATOR_SESSION = { idleSeconds: 15 * 60, maxSeconds: 12 * 60 * 60 } as const;

/** The header an operator session's token travels in, from the console's web tier to the engine. */
export const OPERATOR_TOKEN_HEADER = "x-operator-token";

export const operatorRoleField = z.enum(OPERATOR_ROLES, { message: "ops.errors.role" });
export const operatorEmailField = z.string().trim().toLowerCase().email("ops.errors.email").max(254, "ops.errors.email");
/** A new operator's password: long, as a back office's must be (NIST 800-63B: length, no composition rules). */
export const operatorPasswordField = z.string().min(12, "ops.errors.password_short").max(128, "ops.errors.password_long");
export const operatorNameField = z.string().trim().min(1, "ops.errors.name").max(60, "ops.errors.name");
export const totpField = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "ops.errors.totp_format");

export const operatorViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(OPERATOR_ROLES),
  /** Whether the operator has set up their authenticator (their first login does). */
  totpReady: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type OperatorView = z.infer<typeof operatorViewSchema>;

/** Who is signed in, and what they may do. */
export const operatorSelfSchema = z.object({
  operator: operatorViewSchema,
  permissions: z.array(z.enum(OPERATOR_PERMISSIONS)),
});
export type OperatorSelf = z.infer<typeof operatorSelfSchema>;

/** An audit row's action, named after the operator call's path: `/admin/withdrawal/review` → `withdrawal.review`. */
export function auditActionOf(path: string): string {
  return path
    .replace(/^\/?(admin\/)?/, "")
    .replace(/\/:[a-z]+/gi, "")
    .replace(/\//g, ".");
}

/** How an action reached the engine: the console (an operator's session) or the CLI (the data folder's token). */
export const AUDIT_CHANNELS = ["console", "cli"] as const;

export const auditRowSchema = z.object({
  id: z.string(),
  at: z.string(),
  operatorId: z.string().nullable(),
  operator: z.string(),
  role: z.string(),
  via: z.enum(AUDIT_CHANNELS),
  action: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  address: z.string(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;
