/** The tabs of the member's panel on the trading page (`?tab=`), the open orders first. */
export const MEMBER_TABS = ["open", "history", "trades", "funds"] as const;
export type MemberTab = (typeof MEMBER_TABS)[number];

/** The tab a trading page's query asks for: open orders when absent or unknown. */
export function readMemberTab(search: URLSearchParams): MemberTab {
  const asked = search.get("tab");
  return (MEMBER_TABS as readonly string[]).includes(asked ?? "") ? (asked as MemberTab) : "open";
}

/** The side whose form a phone shows (`?side=`): buy unless sell is asked for. Wider screens show both. */
export function readFormSide(search: URLSearchParams): "buy" | "sell" {
  return search.get("side") === "sell" ? "sell" : "buy";
}

/**
 * Which account the trading page's forms trade from (`?deal=`, spec §3 preference `dealType`):
 * `cash` (the spot account) or, on a margin pair, margin ("pry"): `all` the cross account,
 * `fixed` the pair's isolated account. Anything else is cash.
 */
export const DEALS = ["cash", "all", "fixed"] as const;
export type Deal = (typeof DEALS)[number];

export function readDeal(search: URLSearchParams): Deal {
  const asked = search.get("deal");
  return (DEALS as readonly string[]).includes(asked ?? "") ? (asked as Deal) : "cash";
}
