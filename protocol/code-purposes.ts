/** What a verification code is for; a code only works for the purpose it was sent for. */
export const CODE_PURPOSES = ["register", "bind", "security", "reset"] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];
