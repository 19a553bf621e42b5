import * as z from "zod";
import { define, intString } from "../endpoint";
import { coinField, idempotencyKeyField, positiveDecimalField } from "../fields";
import {
  ACCOUNT_TYPES,
  areaCodeField,
  codeField,
  deviceIdField,
  deviceSchema,
  emailField,
  googleCodeField,
  inviteCodeField,
  loginLogEntrySchema,
  memberInfoSchema,
  passwordField,
  phoneField,
  tokenGrantSchema,
  kycStatusSchema,
  tradePasswordField,
} from "../member";
import { CODE_PURPOSES } from "../code-purposes";
import { addressField, memoField, networkField } from "./wallet";

const pageQuery = z.object({
  pageNo: intString.pipe(z.number().int().min(1)).optional(),
  pageSize: intString.pipe(z.number().int().min(1).max(100)).optional(),
});

/** Where a code or a login goes: an e-mail address, or a phone number with its area code. */
const accountFields = {
  accountType: z.enum(ACCOUNT_TYPES),
  email: emailField.optional(),
  areaCode: areaCodeField.optional(),
  phone: phoneField.optional(),
};
const requireAccount = <T extends { accountType: string; email?: string; areaCode?: string; phone?: string }>(value: T, ctx: z.core.$RefinementCtx) => {
  if (value.accountType === "email" && !value.email) ctx.addIssue({ code: "custom", path: ["email"], message: "validation.email" });
  if (value.accountType === "phone") {
    if (!value.areaCode) ctx.addIssue({ code: "custom", path: ["areaCode"], message: "validation.area_code" });
    if (!value.phone) ctx.addIssue({ code: "custom", path: ["phone"], message: "validation.phone" });
  }
};

export const tokenBodySchema = z.discriminatedUnion("grant_type", [
  z
    .object({
      grant_type: z.literal("password"),
      ...accountFields,
      password: z.string().min(1, "validation.password").max(100),
      googleCode: googleCodeField.optional(),
      deviceId: idempotencyKeyField,
      /**
       * The device cookie of an earlier login from this browser (decision 040). Any text: an
       * unknown, expired or another account's one counts as none, so it is not refused here.
       */
      deviceCookie: z.string().max(200).optional(),
    })
    .superRefine(requireAccount),
  z.object({
    grant_type: z.literal("refresh_token"),
    refresh_token: z.string().min(20).max(200),
  }),
]);

export const registerBodySchema = z
  .object({
    ...accountFields,
    code: codeField,
    password: passwordField,
    inviteCode: inviteCodeField.optional(),
    tradePassword: tradePasswordField.optional(),
    /** Honeypot: people leave it empty; a bot that fills it is refused. */
    website: z.string().max(0, "validation.honeypot").optional(),
  })
  .superRefine(requireAccount);

/**
 * A forgotten password: a `reset` code sent to the account's e-mail or phone, and the new password
 * twice. Not named by the spec (its code purposes include `reset`); docs/decisions/006.
 */
export const resetPasswordBodySchema = z
  .object({ ...accountFields, code: codeField, password: passwordField, password1: z.string().max(100) })
  .superRefine(requireAccount)
  .refine((v) => v.password === v.password1, { path: ["password1"], message: "validation.password_mismatch" });

/**
 * What a `withdraw` code is bound to: the withdrawal it confirms (its mail names them, and a
 * withdrawal with other details does not take it). Required for `withdraw`, ignored otherwise;
 * `memo` (the destination tag, XRP) only where the withdrawal has one: a code sent for one tag
 * confirms no withdrawal to the same address with another tag or none (another customer of the
 * exchange behind that address).
 */
const withdrawalCodeFields = {
  coin: coinField.optional(),
  network: networkField.optional(),
  amount: positiveDecimalField.optional(),
  address: addressField.optional(),
  memo: memoField.optional(),
};

function requireWithdrawal(value: { type: string; coin?: string; network?: string; amount?: string; address?: string }, ctx: z.core.$RefinementCtx) {
  if (value.type !== "withdraw") return;
  for (const field of ["coin", "network", "amount", "address"] as const) {
    if (value[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: "required for a withdrawal code" });
  }
}

/** Members: login, codes, registration and the account center (spec §7 "Auth and member"). */
export const memberEndpoints = {
  token: define({
    method: "POST",
    path: "/api/blade-auth/oauth/token",
    absolute: true,
    query: z.object({
      tenantId: z
        .string()
        .regex(/^\d{6}$/, "must be a six-digit tenant id")
        .optional(),
      scope: z.literal("all").optional(),
      type: z.enum(["account", ...ACCOUNT_TYPES]).optional(),
    }),
    body: tokenBodySchema,
    response: tokenGrantSchema,
  }),
  logout: define({
    method: "POST",
    path: "/api/blade-auth/oauth/logout",
    absolute: true,
    response: z.null(),
  }),
  authentication: define({
    method: "GET",
    path: "coin/open/getAuthentication",
    query: z.object({ account: z.string().trim().min(1).max(254), areaCode: areaCodeField.optional() }),
    response: z.object({ google: z.boolean() }),
  }),
  sendEmailCode: define({
    method: "GET",
    path: "coin/open/send/email",
    query: z.object({ email: emailField, type: z.enum(CODE_PURPOSES), ...withdrawalCodeFields }).superRefine(requireWithdrawal),
    response: z.object({ resendAfterSeconds: z.number().int() }),
  }),
  sendSmsCode: define({
    method: "GET",
    path: "coin/open/send/sms",
    query: z.object({ areaCode: areaCodeField, phone: phoneField, type: z.enum(CODE_PURPOSES), ...withdrawalCodeFields }).superRefine(requireWithdrawal),
    response: z.object({ resendAfterSeconds: z.number().int() }),
  }),
  /** Not named by the spec (its registration call is "not shown"): see docs/decisions/006. */
  register: define({
    method: "POST",
    path: "coin/open/register",
    body: registerBodySchema,
    response: z.object({ uid: z.string() }),
  }),
  /** Sets a new password with a `reset` code; every session of the account ends. */
  resetPassword: define({
    method: "POST",
    path: "coin/open/resetPassword",
    body: resetPasswordBodySchema,
    response: z.null(),
  }),
  memberInfo: define({
    method: "GET",
    path: "coin/member/getMemberInfo",
    response: memberInfoSchema,
  }),
  loginLog: define({
    method: "GET",
    path: "coin/member/getLoginLog",
    query: pageQuery,
    response: z.object({ records: z.array(loginLogEntrySchema), total: z.number().int(), current: z.number().int(), size: z.number().int() }),
  }),
  devices: define({
    method: "GET",
    path: "coin/member/getLoginDevice",
    response: z.array(deviceSchema),
  }),
  deleteDevice: define({
    method: "POST",
    path: "coin/member/deleteDevice/:deviceId",
    params: z.object({ deviceId: deviceIdField }),
    response: z.null(),
  }),
  updateDevice: define({
    method: "POST",
    path: "coin/member/updateDevice",
    body: z.object({
      id: deviceIdField,
      name: z.string().trim().min(1, "validation.device_name").max(60, "validation.device_name"),
    }),
    response: z.null(),
  }),
  updatePassword: define({
    method: "POST",
    path: "/api/blade-user/update-password",
    absolute: true,
    body: z
      .object({ oldPassword: z.string().min(1).max(100), newPassword: passwordField, newPassword1: z.string() })
      .refine((v) => v.newPassword === v.newPassword1, { path: ["newPassword1"], message: "validation.password_mismatch" }),
    response: z.null(),
  }),
  tradePassword: define({
    method: "POST",
    path: "coin/member/tradePwd",
    body: z.object({ tradePassword: tradePasswordField, code: codeField }),
    response: z.null(),
  }),
  antiCode: define({
    method: "POST",
    path: "coin/member/antiCode",
    body: z.object({
      antiCode: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9]{4,20}$/, "validation.anti_code"),
      code: codeField,
    }),
    response: z.null(),
  }),
  support: define({
    method: "POST",
    path: "coin/member/support",
    response: z.object({ supported: z.number().int() }),
  }),
  /** Binds an e-mail or a phone the member does not have yet, proven by a code sent to it. */
  bindAccount: define({
    method: "POST",
    path: "coin/member/accountVerificationBinding",
    body: z.object({ ...accountFields, code: codeField }).superRefine(requireAccount),
    response: memberInfoSchema,
  }),
  /** Starts Google 2FA: a pending secret and its otpauth URI (`purpose`: `bind`). See docs/decisions/006. */
  googleVerification: define({
    method: "GET",
    path: "coin/member/getGoogleVerification/:purpose",
    params: z.object({ purpose: z.enum(["bind"], { message: "must be bind" }) }),
    response: z.object({ secret: z.string(), otpauthUri: z.string() }),
  }),
  /** Binds (mode 2, default) or resets (mode 1) Google 2FA; `googleCode` is the authenticator's code, `code` the e-mailed security code. */
  googleBindingOrReset: define({
    method: "GET",
    path: "coin/member/googleVerificationBindingOrReset/:googleCode/:mode",
    params: z.object({ googleCode: googleCodeField, mode: z.enum(["1", "2"], { message: "must be 1 (reset) or 2 (bind)" }) }),
    query: z.object({ code: codeField }),
    response: z.object({ googleBound: z.boolean() }),
  }),
  /** Spec §7 `cgform-api/upload/file`: multipart, field `file` (and `type`); images checked by content. */
  upload: define({
    method: "POST",
    path: "cgform-api/upload/file",
    response: z.object({ id: z.string(), mime: z.string(), size: z.number().int() }),
  }),
  kycSubmit: define({
    method: "POST",
    path: "coin/member/verified",
    body: z.object({
      frontId: z.string().regex(/^\d{1,18}$/, "validation.id_image"),
      backId: z.string().regex(/^\d{1,18}$/, "validation.id_image"),
      handId: z.string().regex(/^\d{1,18}$/, "validation.id_image"),
      phone: z
        .string()
        .trim()
        .regex(/^\+?\d{4,18}$/, "validation.phone"),
    }),
    response: z.null(),
  }),
  /**
   * Not in the spec: the web form's identity verification in one multipart request, images
   * `front`, `back` and `hand` and the field `phone` (`kycSubmit`'s rule). All of it is checked
   * before anything is stored, so a refused submission leaves no file behind (the spec's `upload`
   * stores each image before `verified` judges the submission).
   */
  kycSubmitImages: define({
    method: "POST",
    path: "coin/member/verified/images",
    response: z.null(),
  }),
  kycStatus: define({
    method: "GET",
    path: "coin/member/getMemberOtherData/:key",
    params: z.object({ key: z.enum(["yhrzxx"], { message: "must be yhrzxx" }) }),
    response: kycStatusSchema,
  }),
  /** Operator call (not in the spec): approve or reject a KYC submission. Needs the admin token. */
  adminKycReview: define({
    method: "POST",
    path: "/admin/kyc/review",
    operator: "kyc.review",
    absolute: true,
    body: z.object({
      uid: z.string().regex(/^\d{8}$/, "must be a member uid"),
      decision: z.enum(["approve", "reject"]),
      reason: z.string().trim().min(1).max(300).optional(),
    }),
    response: kycStatusSchema,
  }),
  /** Outside production (no SMTP configured): what the engine "sent" to one address. */
  devMailbox: define({
    method: "GET",
    path: "dev/mailbox",
    operator: "mailbox.read",
    query: z.object({ destination: z.string().min(3).max(270) }),
    response: z.array(z.object({ id: z.string(), channel: z.string(), destination: z.string(), subject: z.string(), body: z.string(), createdAt: z.string() })),
  }),
} as const;
