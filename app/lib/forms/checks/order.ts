import type { DecimalMark } from "#protocol/decimal-input";
import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";
import type { MarketPrecision } from "../spot-order";

/**
 * The trading page's order form check (`../spot-order.ts`), without zod (decision 037;
 * `checks.test.ts` compares the constraint with the schema's).
 */
export const spotOrderCheck = (precision: MarketPrecision, mark: DecimalMark) =>
  formCheck({
    constraint: {
      side: { required: true, pattern: "buy|sell" },
      orderType: { required: true, pattern: "limit|market|stop" },
      price: O,
      num: O,
      money: O,
      triggerMoney: O,
      stopProfit: O,
      stopProfitPrice: O,
      stopLoss: O,
      stopLossPrice: O,
      deal: { required: false, pattern: "cash|all|fixed" },
      idempotencyKey: R,
    },
    schema: () => import("../spot-order").then((m) => m.spotOrderSchema(precision, mark)),
  });
