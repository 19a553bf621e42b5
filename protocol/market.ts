import * as z from "zod";
import { decimalString } from "./money";

/**
 * A market item (spec §3): one symbol with its 24 h ticker. Ticker values are decimal strings,
 * null while the symbol has not traded.
 */
export const marketItemSchema = z.object({
  symbolName: z.string().max(40),
  coin_symbol: z.string().max(20),
  quote_symbol: z.string().max(20),
  close: decimalString.nullable(),
  high: decimalString.nullable(),
  low: decimalString.nullable(),
  /** 24 h turnover in the quote currency. */
  amount: decimalString.nullable(),
  /** 24 h volume in the base currency. */
  vol: decimalString.nullable(),
  /** 24 h change in percent, e.g. "-1.25". */
  zdf: decimalString.nullable(),
  avatar: z.string().max(300).nullable(),
  /** 0 spot, 1 ubw contract, 2 bbw contract (spec §3). */
  contract_type: z.number().int().min(0).max(2),
});
export type MarketItem = z.infer<typeof marketItemSchema>;

export const MARKET_TYPES = { spot: "0", ubw: "1", bbw: "2" } as const;
