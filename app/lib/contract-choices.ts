/**
 * The contract page's order panel choices (issue 30), read from the page's address: links switch
 * them, so they work without JavaScript. Kept apart from the forms' schemas so that the page's
 * first load carries no zod (decision 037).
 */
export const CONTRACT_ORDER_TYPES = ["limit", "market"] as const;
export type ContractOrderType = (typeof CONTRACT_ORDER_TYPES)[number];
export const CONTRACT_ACTIONS = ["open", "close"] as const;
export type ContractActionTab = (typeof CONTRACT_ACTIONS)[number];

const pick = <T extends string>(choices: readonly T[], value: string | null, fallback: T): T =>
  (choices as readonly string[]).includes(value ?? "") ? (value as T) : fallback;

export function readContractChoices(search: URLSearchParams): { action: ContractActionTab; orderType: ContractOrderType } {
  return { action: pick(CONTRACT_ACTIONS, search.get("action"), "open"), orderType: pick(CONTRACT_ORDER_TYPES, search.get("type"), "limit") };
}

/** The orders area's lists of contract orders (spec §2 `future/u`, `future/coin`). */
export const CONTRACT_ORDER_TABS = ["open", "history"] as const;
export type ContractOrderTab = (typeof CONTRACT_ORDER_TABS)[number];
