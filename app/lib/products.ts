/**
 * The products the home page presents, each with the page that serves it (spec §2's routes). A
 * product is presented once this build serves its page, so no page promises what the product
 * cannot do yet, and each promise returns as its product lands (issue 14). The prose around them
 * (hero, about, footer) names no product.
 */
export const PRODUCTS = [
  { key: "spot", path: "/exchange/full-screen/BTC_USDT" },
  { key: "wallet", path: "/account/wallet/deposit" },
  { key: "contract", path: "/exchange/full-contract/BTC_USDT" },
  { key: "margin", path: "/account/wallet/margin" },
  { key: "loans", path: "/pledge-loan" },
  { key: "pulse", path: "/exchange/pulse/1" },
  { key: "staking", path: "/finance/investment" },
  { key: "subscription", path: "/newCurrency" },
  { key: "otc", path: "/otc/common" },
  { key: "support", path: "/service" },
] as const;

export type ProductKey = (typeof PRODUCTS)[number]["key"];

/** The products whose pages this build serves, in the order above. */
export function liveProducts(isServed: (path: string) => boolean): ProductKey[] {
  return PRODUCTS.filter((product) => isServed(product.path)).map((product) => product.key);
}
