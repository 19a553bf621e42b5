import type { DecimalMark } from "#protocol/decimal-input";
import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/** The subscription pages' form checks (`../subscribe.ts`), without zod (decision 037; `checks.test.ts` compares each constraint with its schema's). */
export const subscribeCheck = (scale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { projectId: R, quantity: O, idempotencyKey: R },
    schema: () => import("../subscribe").then((m) => m.subscribeSchema(scale, mark)),
  });

export const returnApplyCheck = () =>
  formCheck({
    constraint: { idempotencyKey: R },
    schema: () => import("../subscribe").then((m) => m.returnApplySchema()),
  });
