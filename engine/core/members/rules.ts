/** Member rules of the spec (§4, §9) as named constants. */
export const MEMBER_RULES = {
  /** Spec §9: token time 604800 s. */
  accessTokenSeconds: 604_800,
  /** A refresh token outlives the access token it renews. */
  refreshTokenSeconds: 30 * 24 * 3600,
  codeTtlMs: 10 * 60_000,
  codeResendMs: 60_000,
  codeMaxWrongTries: 5,
  /** Login failures: per account and per address, in 15 minutes. */
  loginFailuresPerAccount: 5,
  loginFailuresPerAddress: 20,
  loginWindowMs: 15 * 60_000,
} as const;

