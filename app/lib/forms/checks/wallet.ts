import type { DecimalMark } from "../../decimal-input";
import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";
import type { WithdrawalRules } from "../withdrawal";

/**
 * The checks of the wallet's forms (`../transfer.ts`, `../withdrawal.ts`, `../address-book.ts`),
 * without zod (decision 037; `checks.test.ts` compares each constraint with the schema's).
 */
const accountName = { required: true, pattern: "funding|spot|contract" };

export const transferCheck = (coinScale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { from: accountName, to: accountName, coin: R, amount: O, idempotencyKey: R },
    schema: () => import("../transfer").then((m) => m.transferSchema(coinScale, mark)),
  });

export const withdrawalCheck = (rules: WithdrawalRules) =>
  formCheck({
    constraint: { coin: R, network: R, address: R, memo: O, amount: O, tradePassword: R, code: R, googleCode: O, idempotencyKey: R },
    schema: () => import("../withdrawal").then((m) => m.withdrawalSchema(rules)),
    sendCode: "unchecked",
  });

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
