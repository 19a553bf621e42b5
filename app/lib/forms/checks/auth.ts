import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/**
 * The checks of logging in, registering and a forgotten password (`../auth.ts`), without zod:
 * the inputs' constraints from the first render, the schema loaded when the member starts on the
 * form (decision 037). Each constraint is what `getZodConstraint` reads from the schema
 * (`checks.test.ts` compares them).
 */
const account = { accountType: R, email: O, areaCode: O, phone: O };
const sendAccountCode = () => import("../auth").then((m) => m.sendCodeSchema);

export const loginCheck = formCheck({
  constraint: { ...account, password: R, googleCode: O },
  schema: () => import("../auth").then((m) => m.loginSchema),
});

export const registerCheck = formCheck({
  constraint: { ...account, code: R, password: R, inviteCode: O, tradePassword: O, website: O },
  schema: () => import("../auth").then((m) => m.registerSchema),
  sendCode: sendAccountCode,
});

export const resetPasswordCheck = formCheck({
  constraint: { ...account, code: R, password: R, password1: R },
  schema: () => import("../auth").then((m) => m.resetPasswordSchema),
  sendCode: sendAccountCode,
});
