import type { DecimalMark } from "../../decimal-input";
import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";
import type { WithdrawalRules } from "../withdrawal";

/**
 * The checks of the wallet's money forms (`../transfer.ts`, `../withdrawal.ts`), without zod
 * (decision 037; `checks.test.ts` compares each constraint with the schema's). The address
 * book's are in `address-book.ts`: a module two pages share is bundled with what only those two
 * load (the amount field), not in a file of its own.
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
