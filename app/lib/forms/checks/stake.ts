import type { DecimalMark } from "#protocol/decimal-input";
import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/** The staking pages' form checks (`../stake.ts`), without zod (decision 037; `checks.test.ts` compares each constraint with its schema's). */
export const stakeInvestCheck = (scale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { productId: R, amount: O, idempotencyKey: R },
    schema: () => import("../stake").then((m) => m.stakeInvestSchema(scale, mark)),
  });

export const stakeRedeemCheck = (scale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { stakeId: R, amount: O, idempotencyKey: R },
    schema: () => import("../stake").then((m) => m.stakeRedeemSchema(scale, mark)),
  });
