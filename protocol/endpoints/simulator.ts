import * as z from "zod";
import { define } from "../endpoint";
import { positiveDecimalField, slashSymbolField } from "../fields";

/**
 * The simulated liquidity's operator calls (only where the simulator runs: a fresh `npm start`,
 * staging, the end-to-end tests). Not in the spec.
 */
export const simulatorEndpoints = {
  /**
   * Moves a simulated spot market's reference price at once: the simulated makers quote around
   * it and a taker trades at the new touch, so the last price, and the index and mark of the
   * contracts that follow the market, move with it (the test hook that shows marks, profits and
   * liquidations working). Audited; answers the reference as placed on the tick.
   */
  adminSimPrice: define({
    method: "POST",
    path: "/admin/sim/price",
    operator: "markets.change",
    absolute: true,
    body: z.object({ symbol: slashSymbolField, price: positiveDecimalField }),
    response: z.object({ symbol: z.string(), reference: z.string() }),
  }),
} as const;
