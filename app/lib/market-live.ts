import { marketItemSchema, type MarketItem } from "#protocol/market";

// Apart from market-list.ts: the pushes are checked with zod, which only the live market list
// needs; the header search and the tables read market-list.ts without it (decision 034).

/**
 * Applies a live push (`all_symbol_detail`, MarketItem[]) to the rows: each known market takes
 * the pushed ticker; markets the page does not list are ignored, and an entry that does not have
 * the market item's shape is skipped. Returns the same array when nothing changed.
 */
export function mergeTickers(items: MarketItem[], pushed: unknown): MarketItem[] {
  if (!Array.isArray(pushed)) return items;
  const fresh = new Map<string, MarketItem>();
  for (const entry of pushed) {
    const parsed = marketItemSchema.safeParse(entry);
    if (parsed.success) fresh.set(tickerKey(parsed.data), parsed.data);
  }
  let changed = false;
  const next = items.map((item) => {
    const update = fresh.get(tickerKey(item));
    if (!update || TICKER_FIELDS.every((field) => update[field] === item[field])) return item;
    changed = true;
    const merged = { ...item };
    for (const field of TICKER_FIELDS) merged[field] = update[field];
    return merged;
  });
  return changed ? next : items;
}

/** A market and its kind: the BTC/USDT perpetual is not the BTC/USDT spot market. */
const tickerKey = (item: Pick<MarketItem, "symbolName" | "contract_type">) => `${item.contract_type}:${item.symbolName}`;

const TICKER_FIELDS = ["close", "high", "low", "amount", "vol", "zdf"] as const;
