import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/**
 * The checks of the address book's forms (`../address-book.ts`), without zod (decision 037;
 * `checks.test.ts` compares each constraint with the schema's).
 */
export const addAddressCheck = formCheck({
  constraint: { coinNetwork: R, address: R, memo: O, label: R },
  schema: () => import("../address-book").then((m) => m.addAddressSchema),
});

export const whitelistCheck = (googleBound: boolean) =>
  formCheck({
    constraint: { enabled: { required: true, pattern: "on|off" }, code: R, googleCode: googleBound ? R : O },
    schema: () => import("../address-book").then((m) => m.whitelistSchema(googleBound)),
    sendCode: "unchecked",
  });
