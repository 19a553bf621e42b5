import * as z from "zod";
import { define } from "../endpoint";
import { coinField } from "../fields";

/**
 * A member's favourite symbols (spec §7 "Market": quotes/getOptional, addOptional, cancelOptional).
 * `base` is the base coin and `quote` the quote coin of the symbol, so BTC/USDT is `addOptional/BTC/USDT`.
 * Adding and cancelling change state, so they are POSTs (docs/decisions/011). Each answers the
 * member's favourites afterwards, oldest first, as symbol names (BTC/USDT).
 */
const coinParam = coinField;
const symbolParams = z.object({ base: coinParam, quote: coinParam });
const favouritesSchema = z.array(z.string());

export const favouriteEndpoints = {
  /** The member's favourite symbols, oldest first; symbols delisted since are left out. */
  getOptional: define({
    method: "GET",
    path: "coin/quotes/getOptional",
    response: favouritesSchema,
  }),
  /** Adds a listed symbol to the member's favourites; adding one already there changes nothing. */
  addOptional: define({
    method: "POST",
    path: "coin/quotes/addOptional/:base/:quote",
    params: symbolParams,
    response: favouritesSchema,
  }),
  /** Removes a symbol from the member's favourites; removing one not there changes nothing. */
  cancelOptional: define({
    method: "POST",
    path: "coin/quotes/cancelOptional/:base/:quote",
    params: symbolParams,
    response: favouritesSchema,
  }),
} as const;
