import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";
import type { WithdrawalRules } from "../withdrawal";

/**
 * The check of the wallet's withdrawal form (`../withdrawal.ts`), without zod (decision 037;
 * `checks.test.ts` compares each constraint with the schema's).
 */
export const withdrawalCheck = (rules: WithdrawalRules) =>
  formCheck({
    constraint: { coin: R, network: R, address: R, memo: O, amount: O, tradePassword: R, code: R, googleCode: O, idempotencyKey: R },
    schema: () => import("../withdrawal").then((m) => m.withdrawalSchema(rules)),
    sendCode: "unchecked",
  });
