import type { Insertable } from "kysely";
import type { FooterLinkTable, NavItemTable } from "../schema";

type NavSeed = Omit<Insertable<NavItemTable>, "pid"> & { children?: NavSeed[] };

/**
 * The product navigation (spec §2). `nav_code` names the text key `nav.<code>`. The header shows
 * the first four roots with their children; items whose page the web tier does not serve yet are
 * left out by the web tier, so configuration can run ahead of the code.
 */
export const NAV_TREE: NavSeed[] = [
  { nav_code: "buy_crypto", nav_path: "/ctc", nav_sort: 10, nav_show: 1, nav_icon: "card" },
  { nav_code: "markets", nav_path: "/market/main", nav_sort: 20, nav_show: 1, nav_icon: "chart" },
  {
    nav_code: "trade",
    nav_path: "/exchange/index",
    nav_sort: 30,
    nav_show: 1,
    nav_icon: "swap",
    children: [
      { nav_code: "spot", nav_path: "/exchange/index", nav_sort: 10, nav_show: 1, nav_icon: "spot" },
      { nav_code: "margin", nav_path: "/account/wallet/margin", nav_sort: 15, nav_show: 1, nav_icon: "margin" },
      { nav_code: "contract_u", nav_path: "/exchange/full-contract/BTC_USDT", nav_sort: 20, nav_show: 1, nav_icon: "contract" },
      { nav_code: "pulse", nav_path: "/exchange/pulse/1", nav_sort: 30, nav_show: 1, nav_icon: "pulse" },
      { nav_code: "otc", nav_path: "/otc/common", nav_sort: 40, nav_show: 1, nav_icon: "otc" },
    ],
  },
  {
    nav_code: "finance",
    nav_path: "/finance/investment",
    nav_sort: 40,
    nav_show: 1,
    nav_icon: "earn",
    children: [
      { nav_code: "staking", nav_path: "/finance/investment", nav_sort: 10, nav_show: 1, nav_icon: "stake" },
      { nav_code: "new_coin", nav_path: "/newCurrency", nav_sort: 20, nav_show: 1, nav_icon: "launch" },
      { nav_code: "etf", nav_path: "/etf", nav_sort: 30, nav_show: 1, nav_icon: "etf" },
      { nav_code: "pledge_loan", nav_path: "/pledge-loan", nav_sort: 40, nav_show: 1, nav_icon: "loan" },
      // Spec §2: the borrowings page is flagged hidden in configuration.
      { nav_code: "borrowings", nav_path: "/borrowings", nav_sort: 50, nav_show: 0, nav_icon: "loan" },
    ],
  },
  {
    nav_code: "rewards",
    nav_path: "/welfare/rewardCenter",
    nav_sort: 50,
    nav_show: 1,
    nav_icon: "gift",
    children: [
      { nav_code: "reward_center", nav_path: "/welfare/rewardCenter", nav_sort: 10, nav_show: 1, nav_icon: "gift" },
      { nav_code: "invite", nav_path: "/invite_rebate/index", nav_sort: 20, nav_show: 1, nav_icon: "invite" },
      { nav_code: "lucky_draw", nav_path: "/welfare/luckyDraw", nav_sort: 30, nav_show: 1, nav_icon: "draw" },
    ],
  },
  {
    nav_code: "help",
    nav_path: "/article/main/index",
    nav_sort: 60,
    nav_show: 1,
    nav_icon: "help",
    children: [
      { nav_code: "help_center", nav_path: "/article/main/index", nav_sort: 10, nav_show: 1, nav_icon: "help" },
      { nav_code: "trading_rules", nav_path: "/trading-rules", nav_sort: 20, nav_show: 1, nav_icon: "rules" },
      { nav_code: "rates", nav_path: "/rate/index", nav_sort: 30, nav_show: 1, nav_icon: "rate" },
    ],
  },
];

export const FOOTER_LINKS: Insertable<FooterLinkTable>[] = [
  { group_code: "about", link_code: "about_us", link_path: "/aboutus", link_sort: 10, link_show: 1 },
  { group_code: "about", link_code: "trading_rules", link_path: "/trading-rules", link_sort: 20, link_show: 1 },
  { group_code: "about", link_code: "rates", link_path: "/rate/index", link_sort: 30, link_show: 1 },
  { group_code: "products", link_code: "markets", link_path: "/market/main", link_sort: 10, link_show: 1 },
  { group_code: "products", link_code: "spot", link_path: "/exchange/index", link_sort: 20, link_show: 1 },
  { group_code: "products", link_code: "contracts", link_path: "/exchange/full-contract/BTC_USDT", link_sort: 25, link_show: 1 },
  { group_code: "products", link_code: "staking", link_path: "/finance/investment", link_sort: 30, link_show: 1 },
  { group_code: "products", link_code: "new_coin", link_path: "/newCurrency", link_sort: 40, link_show: 1 },
  { group_code: "support", link_code: "service", link_path: "/service", link_sort: 10, link_show: 1 },
  { group_code: "support", link_code: "help_center", link_path: "/article/main/index", link_sort: 20, link_show: 1 },
  { group_code: "support", link_code: "buy_crypto", link_path: "/ctc", link_sort: 30, link_show: 1 },
];

/** Flattens the tree into rows; ids are assigned in order so children can point at their parent. */
export function navRows(): Insertable<NavItemTable>[] {
  const rows: Insertable<NavItemTable>[] = [];
  let nextId = 1;
  const walk = (items: NavSeed[], pid: number) => {
    for (const { children, ...item } of items) {
      const id = nextId++;
      rows.push({ ...item, id, pid });
      if (children) walk(children, id);
    }
  };
  walk(NAV_TREE, 0);
  return rows;
}
