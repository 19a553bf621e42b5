import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderBook, type BookEvent, type PlaceCommand } from "./order-book";

const limit = (id: string, memberId: string, side: "buy" | "sell", price: bigint, quantity: bigint, tif: PlaceCommand["tif"] = "GTC"): PlaceCommand => ({
  id,
  memberId,
  side,
  type: "limit",
  price,
  quantity,
  tif,
});
const trades = (events: BookEvent[]) => events.filter((e) => e.type === "trade").map((e) => e.type === "trade" && [e.makerOrderId, e.price, e.quantity]);

/** Runs commands and checks the book's invariants after each. */
function play(book: OrderBook, commands: PlaceCommand[]): BookEvent[] {
  const all: BookEvent[] = [];
  for (const command of commands) {
    all.push(...book.place(command));
    expect(book.checkInvariants()).toEqual([]);
  }
  return all;
}

describe("order book", () => {
  it("puts an order at a price whose level just emptied on a new level (the last-added level is not reused once dropped)", () => {
    const book = new OrderBook();
    // Filled away: the level at 100 is dropped, then an order at 100 opens it again.
    play(book, [limit("s1", "a", "sell", 100n, 2n), limit("b1", "b", "buy", 100n, 2n), limit("s2", "a", "sell", 100n, 3n)]);
    expect(book.depth()).toEqual({ bids: [], asks: [[100n, 3n]] });
    // Cancelled away, then the same.
    book.cancel("s2", "a");
    play(book, [limit("s3", "c", "sell", 100n, 4n)]);
    expect(book.depth()).toEqual({ bids: [], asks: [[100n, 4n]] });
    expect(trades(play(book, [limit("b2", "d", "buy", 100n, 4n)]))).toEqual([["s3", 100n, 4n]]);
    expect(book.size).toBe(0);
    // Restored level by level, then traded from the front of the first level.
    book.restoreResting("r1", "a", "sell", 101n, 1n, undefined);
    book.restoreResting("r2", "b", "sell", 101n, 1n, undefined);
    book.restoreResting("r3", "c", "sell", 102n, 1n, undefined);
    expect(book.checkInvariants()).toEqual([]);
    expect(book.depth()).toEqual({
      bids: [],
      asks: [
        [101n, 2n],
        [102n, 1n],
      ],
    });
    expect(trades(play(book, [limit("b3", "d", "buy", 102n, 3n)]))).toEqual([
      ["r1", 101n, 1n],
      ["r2", 101n, 1n],
      ["r3", 102n, 1n],
    ]);
  });

  it("matches by price, then time, with partial fills", () => {
    const book = new OrderBook();
    play(book, [limit("s1", "a", "sell", 101n, 5n), limit("s2", "b", "sell", 100n, 3n), limit("s3", "c", "sell", 100n, 4n)]);
    const events = play(book, [limit("b1", "d", "buy", 101n, 10n)]);
    expect(trades(events)).toEqual([
      ["s2", 100n, 3n],
      ["s3", 100n, 4n],
      ["s1", 101n, 3n],
    ]);
    expect(book.order("s1")?.remaining).toBe(2n);
    expect(book.depth()).toEqual({ bids: [], asks: [[101n, 2n]] });
    expect(events[0]).toEqual({ type: "accepted", orderId: "b1", resting: false });
  });

  it("rests what does not cross and never crosses the book", () => {
    const book = new OrderBook();
    const events = play(book, [limit("b1", "a", "buy", 99n, 5n), limit("s1", "b", "sell", 100n, 5n), limit("b2", "c", "buy", 99n, 1n)]);
    expect(trades(events)).toEqual([]);
    expect(book.depth()).toEqual({ bids: [[99n, 6n]], asks: [[100n, 5n]] });
  });

  it("walks the book with a market order, by quantity or by money, and cancels what no one sells", () => {
    const book = new OrderBook();
    play(book, [limit("s1", "a", "sell", 100n, 2n), limit("s2", "a", "sell", 110n, 2n)]);
    const byQuantity = play(book, [{ id: "m1", memberId: "b", side: "buy", type: "market", quantity: 5n, tif: "IOC" }]);
    expect(trades(byQuantity)).toEqual([
      ["s1", 100n, 2n],
      ["s2", 110n, 2n],
    ]);
    expect(byQuantity.at(-1)).toEqual({ type: "cancelled", orderId: "m1", remaining: 1n, reason: "no-liquidity" });

    play(book, [limit("s3", "a", "sell", 100n, 10n)]);
    const byMoney = play(book, [{ id: "m2", memberId: "b", side: "buy", type: "market", quoteAmount: 350n, tif: "IOC" }]);
    expect(trades(byMoney)).toEqual([["s3", 100n, 3n]]);
    // The 50 left buys less than one unit at 100: the order spent all it could, so it is filled
    // (no cancel event); the caller returns the dust with the hold.
    expect(byMoney.map((e) => e.type)).toEqual(["accepted", "trade"]);
    expect(book.order("m2")).toBeUndefined();

    // Money the book cannot absorb (more than every ask is worth) is cancelled for no liquidity.
    const beyond = play(book, [{ id: "m3", memberId: "b", side: "buy", type: "market", quoteAmount: 100_000n, tif: "IOC" }]);
    expect(trades(beyond)).toEqual([["s3", 100n, 7n]]);
    expect(beyond.at(-1)).toEqual({ type: "cancelled", orderId: "m3", remaining: 99_300n, reason: "no-liquidity" });

    // Money below one unit at the best price buys nothing: cancelled, not "filled".
    play(book, [limit("s4", "a", "sell", 100n, 1n)]);
    const tooLittle = play(book, [{ id: "m4", memberId: "b", side: "buy", type: "market", quoteAmount: 99n, tif: "IOC" }]);
    expect(tooLittle.at(-1)).toEqual({ type: "cancelled", orderId: "m4", remaining: 99n, reason: "no-liquidity" });
  });

  it("IOC cancels its remainder; FOK fills completely or not at all; post-only never takes", () => {
    const book = new OrderBook();
    play(book, [limit("s1", "a", "sell", 100n, 3n)]);
    const ioc = play(book, [limit("i1", "b", "buy", 100n, 5n, "IOC")]);
    expect(trades(ioc)).toEqual([["s1", 100n, 3n]]);
    expect(ioc.at(-1)).toEqual({ type: "cancelled", orderId: "i1", remaining: 2n, reason: "ioc" });
    expect(book.size).toBe(0);

    play(book, [limit("s2", "a", "sell", 100n, 3n)]);
    expect(play(book, [limit("f1", "b", "buy", 100n, 4n, "FOK")])).toEqual([{ type: "rejected", orderId: "f1", code: "MATCHING_FOK_NOT_FILLED" }]);
    expect(book.order("s2")?.remaining).toBe(3n);
    expect(trades(play(book, [limit("f2", "b", "buy", 100n, 3n, "FOK")]))).toEqual([["s2", 100n, 3n]]);

    play(book, [limit("s3", "a", "sell", 100n, 1n)]);
    expect(play(book, [limit("p1", "b", "buy", 100n, 1n, "POST_ONLY")])).toEqual([{ type: "rejected", orderId: "p1", code: "MATCHING_POST_ONLY_WOULD_TRADE" }]);
    expect(play(book, [limit("p2", "b", "buy", 99n, 1n, "POST_ONLY")])[0]).toEqual({ type: "accepted", orderId: "p2", resting: true });
  });

  it("prevents self-trades by cancelling the taker's remainder", () => {
    const book = new OrderBook();
    play(book, [limit("s1", "x", "sell", 100n, 1n), limit("s2", "me", "sell", 100n, 1n), limit("s3", "y", "sell", 100n, 1n)]);
    const events = play(book, [limit("b1", "me", "buy", 100n, 3n)]);
    expect(trades(events)).toEqual([["s1", 100n, 1n]]);
    expect(events.at(-1)).toEqual({ type: "cancelled", orderId: "b1", remaining: 2n, reason: "self-trade" });
    expect(book.order("s2")?.remaining).toBe(1n);
    expect(play(book, [limit("f1", "me", "buy", 100n, 1n, "FOK")])[0]).toMatchObject({ type: "rejected", code: "MATCHING_FOK_NOT_FILLED" });
  });

  it("cancels and moves only its owner's orders", () => {
    const book = new OrderBook();
    play(book, [limit("b1", "a", "buy", 99n, 2n), limit("b2", "b", "buy", 99n, 2n), limit("s1", "c", "sell", 101n, 1n)]);
    expect(book.cancel("b1", "b")).toEqual([{ type: "rejected", orderId: "b1", code: "MATCHING_NOT_OWNER" }]);
    expect(book.cancel("nope", "a")).toEqual([{ type: "rejected", orderId: "nope", code: "MATCHING_UNKNOWN_ORDER" }]);
    expect(book.cancel("b2", "b")).toEqual([{ type: "cancelled", orderId: "b2", remaining: 2n, reason: "user" }]);
    expect(book.checkInvariants()).toEqual([]);
    const moved = book.move("b1", "a", 101n);
    expect(moved[0]).toEqual({ type: "cancelled", orderId: "b1", remaining: 2n, reason: "moved" });
    expect(trades(moved)).toEqual([["s1", 101n, 1n]]);
    expect(book.depth()).toEqual({ bids: [[101n, 1n]], asks: [] });
    expect(book.checkInvariants()).toEqual([]);
  });

  it("hands an order's own reference back when it is cancelled, as with its trades", () => {
    const book = new OrderBook();
    book.place({ ...limit("b1", "a", "buy", 99n, 2n), ref: "hold:b1" });
    book.place({ ...limit("i1", "b", "buy", 98n, 1n, "IOC"), ref: "hold:i1" });
    expect(book.place({ ...limit("i2", "b", "sell", 99n, 3n, "IOC"), ref: "hold:i2" }).at(-1)).toMatchObject({
      type: "cancelled",
      reason: "ioc",
      ref: "hold:i2",
    });
    book.place({ ...limit("b3", "a", "buy", 97n, 2n), ref: "hold:b3" });
    expect(book.cancel("b3", "a")).toEqual([{ type: "cancelled", orderId: "b3", remaining: 2n, reason: "user", ref: "hold:b3" }]);
  });

  it("keeps time priority when orders leave a level from its middle, front or back", () => {
    const book = new OrderBook();
    play(
      book,
      ["s1", "s2", "s3", "s4", "s5"].map((id, i) => limit(id, `m${i}`, "sell", 100n, 1n)),
    );
    book.cancel("s3", "m2"); // middle
    book.cancel("s1", "m0"); // front
    book.cancel("s5", "m4"); // back
    expect(book.checkInvariants()).toEqual([]);
    play(book, [limit("s6", "m5", "sell", 100n, 1n)]);
    expect(trades(play(book, [limit("b1", "x", "buy", 100n, 3n)]))).toEqual([
      ["s2", 100n, 1n],
      ["s4", 100n, 1n],
      ["s6", 100n, 1n],
    ]);
    // The emptied level is gone; a new one at the same price starts afresh.
    expect(book.depth()).toEqual({ bids: [], asks: [] });
    play(book, [limit("s7", "m6", "sell", 100n, 2n), limit("s8", "m7", "sell", 100n, 3n)]);
    expect(book.move("s7", "m6", 100n)[0]).toMatchObject({ type: "cancelled", reason: "moved" }); // back of the queue
    expect(trades(play(book, [limit("b2", "x", "buy", 100n, 4n)]))).toEqual([
      ["s8", 100n, 3n],
      ["s7", 100n, 1n],
    ]);
    expect(book.depth()).toEqual({ bids: [], asks: [[100n, 1n]] });
  });

  it("hashes its state: the same commands give the same hash; queue order and amounts change it", () => {
    const build = (cmds: PlaceCommand[]) => {
      const book = new OrderBook();
      for (const c of cmds) book.place(c);
      return book;
    };
    const stream = [
      limit("a", "m1", "buy", 100n, 5n),
      limit("b", "m2", "buy", 100n, 3n),
      limit("c", "m3", "sell", 105n, 2n),
      limit("d", "m4", "sell", 99n, 1n),
    ];
    expect(build(stream).stateHash()).toBe(build(stream).stateHash());
    // Same levels and totals, other queue order: another state.
    expect(build([stream[1]!, stream[0]!, stream[2]!, stream[3]!]).stateHash()).not.toBe(build(stream).stateHash());
    const moved = build(stream);
    moved.move("c", "m3", 106n);
    expect(moved.stateHash()).not.toBe(build(stream).stateHash());
    const cancelled = build(stream);
    cancelled.cancel("b", "m2");
    expect(cancelled.stateHash()).toBe(build([stream[0]!, stream[2]!, stream[3]!]).stateHash());
  });

  it("refuses malformed commands and duplicate ids", () => {
    const book = new OrderBook();
    play(book, [limit("x", "a", "buy", 10n, 1n)]);
    expect(book.place(limit("x", "a", "buy", 10n, 1n))[0]).toMatchObject({ code: "MATCHING_DUPLICATE_ID" });
    expect(book.place(limit("y", "a", "buy", 0n, 1n))[0]).toMatchObject({ code: "MATCHING_BAD_COMMAND" });
    expect(book.place(limit("z", "a", "buy", 10n, 0n))[0]).toMatchObject({ code: "MATCHING_BAD_COMMAND" });
    expect(book.place({ id: "m", memberId: "a", side: "sell", type: "market", quantity: 1n, tif: "POST_ONLY" })[0]).toMatchObject({
      code: "MATCHING_BAD_COMMAND",
    });
  });

  it("keeps its invariants and conserves quantity for random order streams (property)", () => {
    const command = fc.record({
      kind: fc.constantFrom("limit", "limit", "limit", "market", "cancel", "move"),
      member: fc.constantFrom("a", "b", "c", "d"),
      side: fc.constantFrom("buy" as const, "sell" as const),
      price: fc.bigInt({ min: 95n, max: 105n }),
      quantity: fc.bigInt({ min: 1n, max: 20n }),
      tif: fc.constantFrom("GTC" as const, "GTC" as const, "IOC" as const, "FOK" as const, "POST_ONLY" as const),
      target: fc.nat(80),
    });
    fc.assert(
      fc.property(fc.array(command, { maxLength: 80 }), (commands) => {
        const book = new OrderBook();
        let placed = 0n;
        let traded = 0n;
        let cancelled = 0n;
        const owners: string[] = [];
        commands.forEach((c, i) => {
          const id = `o${i}`;
          owners.push(c.member);
          let events: BookEvent[];
          if (c.kind === "cancel") events = book.cancel(`o${c.target}`, owners[c.target] ?? c.member);
          else if (c.kind === "move") events = book.move(`o${c.target}`, owners[c.target] ?? c.member, c.price);
          else
            events = book.place({
              id,
              memberId: c.member,
              side: c.side,
              type: c.kind as "limit" | "market",
              price: c.kind === "limit" ? c.price : undefined,
              quantity: c.quantity,
              tif: c.kind === "market" ? "IOC" : c.tif,
            });
          for (const e of events) {
            if (e.type === "accepted" && c.kind !== "move") placed += c.quantity;
            if (e.type === "trade") traded += e.quantity;
            if (e.type === "cancelled" && e.reason !== "moved") cancelled += e.remaining;
            if (e.type === "trade") expect(e.takerMemberId).not.toBe(e.makerMemberId);
          }
          expect(book.checkInvariants()).toEqual([]);
        });
        const { bids, asks } = book.depth(1_000);
        const resting = [...bids, ...asks].reduce((sum, [, q]) => sum + q, 0n);
        // Every unit placed is resting, traded (counted on both sides) or cancelled.
        expect(placed).toBe(resting + 2n * traded + cancelled);
      }),
      { numRuns: 300 },
    );
  });
});
