import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromMinor, toMinor } from "#protocol/decimal";
import { groupLevels, groupStep, readBookGroup } from "./book-grouping";

describe("book grouping (issue 28 §3)", () => {
  const bids: Array<[string, string]> = [
    ["64019.2", "0.5"],
    ["64012.8", "0.25"],
    ["64006.4", "1"],
    ["63999.9", "2"],
  ];
  const asks: Array<[string, string]> = [
    ["64032", "0.1"],
    ["64038.4", "0.2"],
    ["64044.8", "0.3"],
    ["64102.4", "1"],
  ];

  it("gathers bids down and asks up to rows of the step, adding their amounts", () => {
    // Price scale 1 (tick 0.1): a group of 100 ticks is 10 USDT.
    expect(groupLevels(bids, "bid", 100, 1, 6)).toEqual([
      ["64010", "0.75"],
      ["64000", "1"],
      ["63990", "2"],
    ]);
    expect(groupLevels(asks, "ask", 100, 1, 6)).toEqual([
      ["64040", "0.3"],
      ["64050", "0.3"],
      ["64110", "1"],
    ]);
    expect(groupLevels(bids, "bid", 1, 1, 6)).toEqual(bids);
  });

  it("keeps every amount and never shows a better price than the orders in a row (property)", () => {
    const level = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.bigInt({ min: 1n, max: 10n ** 8n }));
    fc.assert(
      fc.property(
        fc.array(level, { maxLength: 30 }),
        fc.constantFrom("bid" as const, "ask" as const),
        fc.constantFrom(10 as const, 100 as const, 1000 as const),
        (raw, side, group) => {
          const sorted = [...new Map(raw.map(([p, a]) => [p, a]))].sort(([x], [y]) => (side === "bid" ? (x > y ? -1 : 1) : x < y ? -1 : 1));
          const levels = sorted.map(([p, a]) => [fromMinor(p, 2), fromMinor(a, 6)] as [string, string]);
          const rows = groupLevels(levels, side, group, 2, 6);
          const total = (xs: Array<readonly [string, string]>) => xs.reduce((sum, [, a]) => sum + toMinor(a, 6), 0n);
          expect(total(rows)).toBe(total(levels));
          for (const [price] of rows) expect(toMinor(price, 2) % BigInt(group)).toBe(0n);
          for (const [price] of levels) {
            const gap = (r: string) => (side === "bid" ? toMinor(price, 2) - toMinor(r, 2) : toMinor(r, 2) - toMinor(price, 2));
            const row = rows.find(([r]) => gap(r) >= 0n && gap(r) < BigInt(group));
            expect(row).toBeDefined();
          }
        },
      ),
    );
  });

  it("reads the grouping from the page's query, the tick when it is not one offered", () => {
    expect(readBookGroup(new URLSearchParams("group=100"))).toBe(100);
    expect(readBookGroup(new URLSearchParams("group=7"))).toBe(1);
    expect(readBookGroup(new URLSearchParams(""))).toBe(1);
    expect(groupStep(2, 100)).toBe("1");
    expect(groupStep(1, 1)).toBe("0.1");
  });
});
