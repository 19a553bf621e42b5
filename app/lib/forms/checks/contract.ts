import type { DecimalMark } from "#protocol/decimal-input";
import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/**
 * The contract page's form checks (`../contract-order.ts`), without zod (decision 037;
 * `checks.test.ts` compares each constraint with its schema's).
 */
export const contractOrderCheck = (priceScale: number, mark: DecimalMark) =>
  formCheck({
    constraint: {
      direction: { required: true, pattern: "1|2|3|4" },
      orderType: { required: true, pattern: "limit|market|stop" },
      tif: { required: false, pattern: "GTC|IOC|FOK|POST_ONLY" },
      price: O,
      num: O,
      triggerPrice: O,
      triggerBy: { required: false, pattern: "mark|last" },
      idempotencyKey: R,
    },
    schema: () => import("../contract-order").then((m) => m.contractOrderSchema(priceScale, mark)),
  });

export const contractLeverageCheck = (maxLeverage: number) =>
  formCheck({
    constraint: { leverage: R, idempotencyKey: R },
    schema: () => import("../contract-order").then((m) => m.contractLeverageSchema(maxLeverage)),
  });

export const contractTpslCheck = (priceScale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { takeProfit: O, stopLoss: O, triggerBy: { required: false, pattern: "mark|last" }, idempotencyKey: R },
    schema: () => import("../contract-order").then((m) => m.contractTpslSchema(priceScale, mark)),
  });

export const contractMarginCheck = (settleScale: number, mark: DecimalMark) =>
  formCheck({
    constraint: { change: { required: true, pattern: "add|remove" }, amount: O, idempotencyKey: R },
    schema: () => import("../contract-order").then((m) => m.contractMarginSchema(settleScale, mark)),
  });
