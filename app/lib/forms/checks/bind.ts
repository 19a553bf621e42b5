import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/**
 * The checks of binding an e-mail address or a phone (`../bind.ts`), without zod (decision 037;
 * `checks.test.ts` compares each constraint with the schema's). Apart from the other account
 * checks: these two pages then load only their own.
 */
export const bindEmailCheck = formCheck({
  constraint: { email: R, code: O },
  schema: () => import("../bind").then((m) => m.bindEmailSchema),
});

export const bindPhoneCheck = formCheck({
  constraint: { areaCode: R, phone: R, code: O },
  schema: () => import("../bind").then((m) => m.bindPhoneSchema),
});
