/**
 * The contract page's order panel choices (issue 30), read from the page's address: links switch
 * them, so they work without JavaScript. Kept apart from the forms' schemas so that the page's
 * first load carries no zod (decision 037).
 */
/** A stop order waits for its trigger price, then is placed as a limit (with a price) or a market order (decision 048). */
export const CONTRACT_ORDER_TYPES = ["limit", "market", "stop"] as const;
export type ContractOrderType = (typeof CONTRACT_ORDER_TYPES)[number];
/** How long a contract limit order stays (the market order is always immediate or cancel). */
export const CONTRACT_TIME_IN_FORCE = ["GTC", "IOC", "FOK", "POST_ONLY"] as const;
export type ContractTimeInForce = (typeof CONTRACT_TIME_IN_FORCE)[number];
export const CONTRACT_ACTIONS = ["open", "close"] as const;
export type ContractActionTab = (typeof CONTRACT_ACTIONS)[number];

const pick = <T extends string>(choices: readonly T[], value: string | null, fallback: T): T =>
  (choices as readonly string[]).includes(value ?? "") ? (value as T) : fallback;

export function readContractChoices(search: URLSearchParams): { action: ContractActionTab; orderType: ContractOrderType } {
  return { action: pick(CONTRACT_ACTIONS, search.get("action"), "open"), orderType: pick(CONTRACT_ORDER_TYPES, search.get("type"), "limit") };
}

/** The text of each contract order direction (1 open long, 2 open short, 3 close long, 4 close short). */
export const CONTRACT_DIRECTION_KEYS = {
  "1": "contract_page.open_long",
  "2": "contract_page.open_short",
  "3": "contract_page.close_long",
  "4": "contract_page.close_short",
} as const;

/** What a stop order, a take profit or a stop loss watches: the mark (the default) or the last trade price. */
export const CONTRACT_TRIGGER_PRICES = ["mark", "last"] as const;
export type ContractTriggerPrice = (typeof CONTRACT_TRIGGER_PRICES)[number];

/** The chart's two prices (`?price=`): the last trade's, and the mark that margins and liquidations use. */
export const CONTRACT_CHART_PRICES = ["last", "mark"] as const;
export type ContractChartPrice = (typeof CONTRACT_CHART_PRICES)[number];

export function readChartPrice(search: URLSearchParams): ContractChartPrice {
  return pick(CONTRACT_CHART_PRICES, search.get("price"), "last");
}

/** The orders area's lists of a contract kind (spec §2 `future/u`, `future/coin`): orders, and the funding and liquidations of the member's positions. */
export const CONTRACT_ORDER_TABS = ["open", "history", "stops", "stop_history", "funding", "liquidations"] as const;
export type ContractOrderTab = (typeof CONTRACT_ORDER_TABS)[number];
