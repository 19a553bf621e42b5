import { fromMinor, toMinor } from "#protocol/decimal";

/** How many ticks one row of the book may gather: the market's own tick, then 10, 100 and 1,000 of them. */
export const BOOK_GROUPS = [1, 10, 100, 1000] as const;
export type BookGroup = (typeof BOOK_GROUPS)[number];

/** The grouping a trading page's `?group=` asks for (1 when absent or not one of {@link BOOK_GROUPS}). */
export function readBookGroup(search: URLSearchParams): BookGroup {
  const asked = Number(search.get("group"));
  return (BOOK_GROUPS as readonly number[]).includes(asked) ? (asked as BookGroup) : 1;
}

/** The price step of a grouping, as a decimal string (`0.01` × 100 = `1`). */
export function groupStep(priceScale: number, group: BookGroup): string {
  return fromMinor(BigInt(group), priceScale);
}

/**
 * Gathers a side of the book into rows `group` ticks wide, exactly (in minor units): a bid goes to
 * the row at or below its price, an ask to the row at or above it, so a row never shows a better
 * price than any order in it. Amounts of one row add up; the order of the side is kept (best first).
 */
export function groupLevels(
  levels: ReadonlyArray<readonly [string, string]>,
  side: "bid" | "ask",
  group: BookGroup,
  priceScale: number,
  amountScale: number,
): Array<[string, string]> {
  if (group === 1) return levels.map(([p, a]) => [p, a]);
  const step = BigInt(group);
  const rows = new Map<bigint, bigint>();
  for (const [price, amount] of levels) {
    const minor = toMinor(price, priceScale, "down");
    const rest = minor % step;
    const row = rest === 0n ? minor : side === "bid" ? minor - rest : minor - rest + step;
    rows.set(row, (rows.get(row) ?? 0n) + toMinor(amount, amountScale, "down"));
  }
  return [...rows].map(([row, amount]) => [fromMinor(row, priceScale), fromMinor(amount, amountScale)]);
}
