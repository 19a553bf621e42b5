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
