/**
 * What a verification code is for; a code only works for the purpose it was sent for. A
 * `withdraw` code is also bound to the withdrawal it was sent for (coin, network, amount, address).
 */
export const CODE_PURPOSES = ["register", "bind", "security", "reset", "withdraw"] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];
