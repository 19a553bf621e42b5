import type { DecimalMark } from "#protocol/decimal-input";
import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/**
 * The check of the wallet's transfer form (`../transfer.ts`), without zod (decision 037;
 * `checks.test.ts` compares each constraint with the schema's). The withdrawal's and the address
 * book's are in modules of their own (each form's check in its own module): a module only one page imports is bundled in that page's
 * chunk, where a module two pages share is a chunk (or part of one) that both load whole.
 */
const accountName = { required: true, pattern: "funding|spot|contract" };

export const transferCheck = (coinScale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { from: accountName, to: accountName, coin: R, amount: O, idempotencyKey: R },
    schema: () => import("../transfer").then((m) => m.transferSchema(coinScale, mark)),
  });
