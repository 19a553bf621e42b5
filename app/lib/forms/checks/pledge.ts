import type { DecimalMark } from "#protocol/decimal-input";
import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/** The loan pages' form checks (`../pledge.ts`), without zod (decision 037; `checks.test.ts` compares each constraint with its schema's). */
export const pledgeBorrowCheck = (loanScale: number, collateralScale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { productId: R, amount: O, collateral: O, idempotencyKey: R },
    schema: () => import("../pledge").then((m) => m.pledgeBorrowSchema(loanScale, collateralScale, mark)),
  });

export const pledgeChangeCheck = (scale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { loanId: R, operation: { required: true, pattern: "repay|add|remove" }, amount: O, idempotencyKey: R },
    schema: () => import("../pledge").then((m) => m.pledgeChangeSchema(scale, mark)),
  });
