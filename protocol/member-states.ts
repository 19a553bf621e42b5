/**
 * A member's states as numbers the pages compare against, without the schemas of `member.ts`
 * (so a page reading them does not bring zod into the browser; decision 037).
 */

/** KYC review state (dict `kyc_status`): 0 not submitted, 1 in review, 2 approved, 3 rejected. */
export const KYC_STATUS = { none: 0, review: 1, approved: 2, rejected: 3 } as const;
