import type { MarketItem } from "#protocol/market";

/** The trading page of a market (spec §2: the slash of the symbol becomes an underscore). */
export function tradingPath(item: Pick<MarketItem, "symbolName" | "contract_type">): string {
  const symbol = item.symbolName.replace("/", "_");
  return item.contract_type === 0 ? `/exchange/full-screen/${symbol}` : `/exchange/full-contract/${symbol}`;
}
