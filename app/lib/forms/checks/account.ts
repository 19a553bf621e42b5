import { formCheck, REQUIRED as R } from "../form-check";

/**
 * The checks of the account centre's forms (`../account.ts`, `../kyc.ts`; binding an address is
 * in `bind.ts`), without
 * zod (decision 037; `checks.test.ts` compares each constraint with the schema's). A security
 * code is sent to an address the engine knows, so its button checks nothing here.
 */
export const changePasswordCheck = formCheck({
  constraint: { oldPassword: R, newPassword: R, newPassword1: R },
  schema: () => import("../account").then((m) => m.changePasswordSchema),
});

export const tradePasswordCheck = formCheck({
  constraint: { tradePassword: R, tradePassword1: R, code: R },
  schema: () => import("../account").then((m) => m.tradePasswordSchema),
  sendCode: "unchecked",
});

export const antiCodeCheck = formCheck({
  constraint: { antiCode: R, code: R },
  schema: () => import("../account").then((m) => m.antiCodeSchema),
  sendCode: "unchecked",
});

export const googleCheck = formCheck({
  constraint: { googleCode: R, code: R },
  schema: () => import("../account").then((m) => m.googleSchema),
  sendCode: "unchecked",
});

export const kycCheck = formCheck({
  constraint: { front: R, back: R, hand: R, phone: R },
  schema: () => import("../kyc").then((m) => m.kycSchema),
});
