/** Member rules of the spec (§4, §9) as named constants. */
export const MEMBER_RULES = {
  /**
   * A refresh token lives 30 days (never less than the access token it renews). The access token
   * lives the site configuration's `tokenTime` (spec §9: 604800 s; `engine/members/sessions.ts`).
   */
  refreshTokenSeconds: 30 * 24 * 3600,
  codeTtlMs: 10 * 60_000,
  codeResendMs: 60_000,
  codeMaxWrongTries: 5,
  /**
   * Login failures in 15 minutes: per account from one address (so nobody else can lock an account
   * out), and per address over all accounts. Per account over all addresses, failures beyond 10 in
   * an hour make each next try wait 2 s, 4 s, … up to a minute (slow guessing, no lockout).
   */
  loginFailuresPerAccountAndAddress: 5,
  loginFailuresPerAddress: 20,
  loginWindowMs: 15 * 60_000,
  loginBackoff: { free: 10, baseDelayMs: 2_000, maxDelayMs: 60_000, windowMs: 60 * 60_000 },
  /**
   * Login failures in 15 minutes from a browser that presents its device cookie (decision 040):
   * then that cookie is locked out for the rest of the window, and only it.
   */
  loginFailuresPerDeviceCookie: 5,
} as const;

/**
 * The shared demo member's UID (docs/decisions/013-demo-member.md): registration draws UIDs from
 * 10000000 to 99999998, so no real member ever has it.
 */
export const DEMO_MEMBER_UID = "99999999";
