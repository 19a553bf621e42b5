import * as z from "zod";
import { DEVICE_ID_PATTERN } from "./device-id";
import { EMAIL_PATTERN, PASSWORD_PATTERN, SIX_DIGIT_CODE_PATTERN, TRADE_PASSWORD_PATTERN } from "./validation";

/**
 * Member fields and their rules (spec §5), shared by the web forms and the engine. Messages are
 * text keys (`validation.*`), translated where they are shown.
 */
export const emailField = z.string().trim().toLowerCase().max(254, "validation.email").regex(EMAIL_PATTERN, "validation.email");
export const passwordField = z.string().regex(PASSWORD_PATTERN, "validation.password");
export const codeField = z.string().trim().regex(SIX_DIGIT_CODE_PATTERN, "validation.code");
export const tradePasswordField = z.string().regex(TRADE_PASSWORD_PATTERN, "validation.trade_password");
export const areaCodeField = z
  .string()
  .trim()
  .regex(/^\d{1,4}$/, "validation.area_code");
export const phoneField = z
  .string()
  .trim()
  .regex(/^\d{4,15}$/, "validation.phone");
export const inviteCodeField = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{4,16}$/, "validation.invite_code");
export const googleCodeField = codeField;

export const ACCOUNT_TYPES = ["email", "phone"] as const;

/** The public view of a member (spec §3 "User info"); secrets never leave the engine. */
export const memberInfoSchema = z.object({
  id: z.string(),
  uid: z.string(),
  email: z.string().nullable(),
  areaCode: z.string().nullable(),
  phone: z.string().nullable(),
  avatar: z.string(),
  is_merchant: z.number().int(),
  merchant: z.object({ id: z.string() }).nullable(),
  blade_user_id: z.string(),
  chatKey: z.string(),
  supported: z.number().int(),
  inviteCode: z.string(),
  googleBound: z.boolean(),
  tradePasswordSet: z.boolean(),
  antiCodeSet: z.boolean(),
  createdAt: z.string(),
  /** The shared demo member of a demo install: its security settings are locked (decision 013). */
  demo: z.boolean().default(false),
});
export type MemberInfo = z.infer<typeof memberInfoSchema>;

/**
 * How long a device cookie lives (decision 040): the engine's record of it and the web tier's
 * cookie that keeps it both end after this many days.
 */
export const DEVICE_COOKIE_DAYS = 180;

/** What the token call answers (spec §7): tokens plus the member. */
export const tokenGrantSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("bearer"),
  expires_in: z.number().int(),
  user: memberInfoSchema,
  /**
   * A password grant's new device cookie (not in the spec; decision 040): an opaque value the
   * client sends back as `deviceCookie` at its next login, which then is limited on its own.
   */
  device_cookie: z.string().optional(),
});
export type TokenGrant = z.infer<typeof tokenGrantSchema>;

/**
 * One login of the member's. Without an id: the log's key is a counter over every member's logins
 * (it would tell how many the exchange has), and nothing names an entry.
 */
export const loginLogEntrySchema = z.object({
  ip: z.string(),
  deviceName: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
});

/**
 * A device's id, as the devices list shows it and a rename or delete names it: random (a UUID),
 * never a counter, as one visitor of the shared demo member must not find another's session.
 */
export const deviceIdField = z.string().regex(DEVICE_ID_PATTERN, "validation.device_id");

export const deviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type Device = z.infer<typeof deviceSchema>;

export { KYC_STATUS } from "./member-states";
export const kycStatusSchema = z.object({
  status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  reason: z.string().nullable(),
  submittedAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type KycStatus = z.infer<typeof kycStatusSchema>;
