import { describe, expect, it } from "vitest";
import { seeded } from "./seeded-random";
import { ladderPrices, ladderShape, ladderTouch, planRequote, type Quote } from "./quote-ladder";

describe("the makers' quote ladder", () => {
  it("spaces quotes a basis point apart, at least a tick", () => {
    expect(ladderShape(6_400_000n, 1n).step).toBe(640n); // BTC 64,000.00: 6.40
    expect(ladderShape(6_000n, 1n).step).toBe(1n); // XRP 0.6000: a tick is 1.7 bp
    expect(ladderShape(6_400_000n, 1n).levels).toBeGreaterThanOrEqual(20);
  });

  it("quotes a spread of one to two steps around any reference, never crossed, on the grid", () => {
    const random = seeded(3);
    for (const shape of [ladderShape(6_400_000n, 1n), ladderShape(6_000n, 1n), ladderShape(15_000n, 1n)]) {
      for (let i = 0; i < 500; i++) {
        const reference = 5_000n + BigInt(Math.floor(random() * 7_000_000));
        const { bid, ask } = ladderTouch(reference, shape);
        expect(bid < reference && reference < ask).toBe(true);
        expect(bid % shape.step).toBe(0n);
        expect(ask % shape.step).toBe(0n);
        expect(ask - bid >= shape.step && ask - bid <= 2n * shape.step).toBe(true);
      }
    }
  });

  it("lays a full ladder on an empty book, then changes only what a move requires", () => {
    const shape = ladderShape(6_400_000n, 1n);
    const first = planRequote([], 6_400_100n, shape);
    expect(first.cancel).toEqual([]);
    const bids = first.place.filter((p) => p.side === "buy");
    const asks = first.place.filter((p) => p.side === "sell");
    expect(bids).toHaveLength(shape.levels);
    expect(asks).toHaveLength(shape.levels);
    expect(bids[0]).toMatchObject({ price: 6_399_360n, level: 0 });
    expect(asks[0]).toMatchObject({ price: 6_400_640n, level: 0 });
    const resting: Quote[] = first.place.map(({ side, price }) => ({ side, price }));

    // Less than a step: nothing to do.
    expect(planRequote(resting, 6_400_300n, shape)).toEqual({ cancel: [], place: [] });
    // Up one step: the old best ask is now inside the spread (cancelled), a new best bid and a new deepest ask are placed; deep bids stay.
    const up = planRequote(resting, 6_400_740n, shape);
    expect(up.cancel).toEqual([{ side: "sell", price: 6_400_640n }]);
    expect(up.place.map((p) => [p.side, p.price])).toEqual([
      ["buy", 6_400_000n],
      ["sell", 6_400_640n + 24n * 640n],
    ]);
  });

  it("cancels quotes off the grid, beyond the keep band, and a second quote on one price", () => {
    const shape = ladderShape(6_400_000n, 1n);
    const wanted = ladderPrices(6_400_100n, shape);
    const resting: Quote[] = [
      ...wanted.buy.map((price) => ({ side: "buy" as const, price })),
      ...wanted.sell.map((price) => ({ side: "sell" as const, price })),
      { side: "buy", price: wanted.buy[3]! }, // a second quote on one price
      { side: "buy", price: wanted.buy[5]! - 7n }, // off the grid
      { side: "sell", price: wanted.sell[0]! + BigInt(shape.keepLevels) * shape.step }, // too deep
    ];
    const plan = planRequote(resting, 6_400_100n, shape);
    expect(plan.place).toEqual([]);
    expect(plan.cancel).toEqual(resting.slice(-3));
  });
});
