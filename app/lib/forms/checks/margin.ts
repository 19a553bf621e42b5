import type { DecimalMark } from "#protocol/decimal-input";
import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/** The margin page's form checks (`../margin.ts`), without zod (decision 037; `checks.test.ts` compares each constraint with its schema's). */
export const marginMoveCheck = (coinScale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { operation: { required: true, pattern: "in|out|borrow|repay" }, coin: R, amount: O, idempotencyKey: R },
    schema: () => import("../margin").then((m) => m.marginMoveSchema(coinScale, mark)),
  });
