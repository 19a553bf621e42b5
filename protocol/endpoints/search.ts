import * as z from "zod";
import { define } from "../endpoint";
import { SEARCH_MAX_LENGTH } from "../limits";
import { decimalString, unsignedDecimalString } from "../money";

/**
 * The header search (spec §2 "Header search", §5 "Search", §9): one public call per keystroke,
 * answered from the engine's memory. The typed text is found case-insensitively inside a market's
 * base coin, its symbol or its coin's name ("et" finds ETH/USDT, "bit" finds BTC by "Bitcoin").
 */

/** Spec §9: the hot list holds the 8 markets of the highest 24 h quote volume. */
export const SEARCH_HOT_COUNT = 8;
/** Spec §9: an empty result suggests 4 markets (the top of the hot list). */
export const SEARCH_SUGGESTION_COUNT = 4;
export { SEARCH_MAX_LENGTH };
/** What a search may hold: letters, digits, `/`, `_`, `-` and spaces (`eth/usdt`, `BTC_USDT`, `tether usd`). */
export const SEARCH_PATTERN = /^[A-Za-z0-9/_\- ]*$/;

/** The search text; blank means "no text" (the hot list). Messages are text keys (protocol/fields.ts). */
export const searchTextField = z
  .string()
  .max(SEARCH_MAX_LENGTH, { message: "validation.search", abort: true })
  .regex(SEARCH_PATTERN, "validation.search")
  .transform((q) => q.trim());

/** One market as the search lists it. Prices are in the quote coin; null while it has not traded. */
export const searchRowSchema = z.object({
  /** BTC/USDT. */
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  /** The base coin's name ("Bitcoin"); the coin code when it has none. */
  name: z.string(),
  /** 0 spot, 1 ubw contract, 2 bbw contract (spec §3 `contract_type`). */
  contract_type: z.number().int().min(0).max(2),
  price: unsignedDecimalString.nullable(),
  /** 24 h change in percent, e.g. "-1.25". */
  change: decimalString.nullable(),
  /** 24 h turnover in the quote coin. */
  volume: unsignedDecimalString.nullable(),
});
export type SearchRow = z.infer<typeof searchRowSchema>;

export const searchAnswerSchema = z.object({
  /** The text searched for, trimmed. */
  q: z.string(),
  /** Spot markets that match, best first (empty without text). */
  spot: z.array(searchRowSchema),
  /** Contract markets that match. */
  contract: z.array(searchRowSchema),
  /** Whether any contract market is listed (a client says so when the contract list is empty for that reason). */
  contractsListed: z.boolean(),
  /** Without text: the top markets by 24 h quote volume (8); with text: empty. */
  hot: z.array(searchRowSchema),
  /** With text and nothing found: 4 markets to try instead; otherwise empty. */
  suggestions: z.array(searchRowSchema),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;

export const searchEndpoints = {
  /** Markets matching `q` (spot and contract), the hot list without text, suggestions when nothing matches. Public. */
  marketSearch: define({
    method: "GET",
    path: "coin/open/search",
    query: z.object({ q: searchTextField.default("") }),
    response: searchAnswerSchema,
  }),
} as const;
