import fc from "fast-check";
import { closedOf, tradesOf, transfersOf, triggeredOf } from "../../testing/core-events";
import { describe, expect, it } from "vitest";
import { feeAccount, Ledger, type AccountRef } from "../ledger/ledger";
import { SpotMarket, type SpotPlaceCommand, type SpotSymbolConfig } from "./spot-market";

// BTC/USDT: price at 2 decimals, quantity at 6; both assets at 8 decimals; fees 0.1 % maker, 0.2 % taker.
const BTC_USDT: SpotSymbolConfig = {
  symbol: "BTC/USDT",
  base: "BTC",
  quote: "USDT",
  priceScale: 2,
  amountScale: 6,
  baseAssetScale: 8,
  quoteAssetScale: 8,
  tickSize: 1n,
  lotSize: 1n,
  minQuantity: 10n, // 0.00001 BTC
  makerFeeBps: 10n,
  takerFeeBps: 20n,
};
const usdt = (n: bigint) => n * 10n ** 8n;
const btc = (n: bigint) => n * 10n ** 8n;
const spot = (owner: string, asset: string): AccountRef => ({ owner, kind: "spot", asset });

function setup() {
  const ledger = new Ledger();
  const market = new SpotMarket(BTC_USDT, ledger);
  ledger.deposit("d-alice-usdt", spot("alice", "USDT"), usdt(100_000n));
  ledger.deposit("d-bob-btc", spot("bob", "BTC"), btc(2n));
  const sound = () => {
    expect(ledger.checkInvariants()).toEqual([]);
    expect(market.checkInvariants()).toEqual([]);
  };
  return { ledger, market, sound };
}
const order = (o: Partial<SpotPlaceCommand> & Pick<SpotPlaceCommand, "orderId" | "memberId" | "side">): SpotPlaceCommand => ({
  type: "limit",
  tif: "GTC",
  ...o,
});

describe("spot market: hold, match, settle", () => {
  it("settles a trade with fees in the asset received, and keeps every asset whole", () => {
    const { ledger, market, sound } = setup();
    // Bob sells 0.5 BTC at 60,000.00 (maker); Alice buys 0.5 BTC at 60,000.00 (taker).
    expect(market.place(order({ orderId: "s1", memberId: "bob", side: "sell", price: 6_000_000n, quantity: 500_000n })).code).toBe("OK");
    sound();
    expect(ledger.held(spot("bob", "BTC"))).toBe(btc(1n) / 2n);
    const result = market.place(order({ orderId: "b1", memberId: "alice", side: "buy", price: 6_000_000n, quantity: 500_000n }));
    sound();
    expect(tradesOf(result)).toEqual([
      expect.objectContaining({ buyer: "alice", seller: "bob", price: 6_000_000n, quantity: 500_000n, value: usdt(30_000n), takerSide: "buy" }),
    ]);
    // Alice (taker, 0.2 %) receives 0.5 BTC − 0.001 BTC; Bob (maker, 0.1 %) receives 30,000 − 30 USDT.
    expect(ledger.available(spot("alice", "BTC"))).toBe(btc(1n) / 2n - 100_000n);
    expect(ledger.available(spot("alice", "USDT"))).toBe(usdt(70_000n));
    expect(ledger.available(spot("bob", "USDT"))).toBe(usdt(30_000n) - usdt(30n));
    expect(ledger.available(spot("bob", "BTC"))).toBe(btc(3n) / 2n);
    expect(ledger.posted(feeAccount("BTC"))).toBe(100_000n);
    expect(ledger.posted(feeAccount("USDT"))).toBe(usdt(30n));
    expect(closedOf(result).map((c) => [c.orderId, c.status])).toMatchObject([
      ["s1", "filled"],
      ["b1", "filled"],
    ]);
  });

  it("tells what a command did as one ordered stream of typed events (decision 017)", () => {
    const { ledger, market } = setup();
    market.place(order({ orderId: "s1", memberId: "bob", side: "sell", price: 6_000_000n, quantity: 100_000n }));
    // Alice buys 0.2: 0.1 fills against Bob's order, 0.1 rests.
    const r = market.place(order({ orderId: "b1", memberId: "alice", side: "buy", price: 6_000_000n, quantity: 200_000n }));
    expect(r.events.map((e) => (e.type === "transfer" ? `transfer:${e.phase}` : e.type))).toEqual([
      "order.placed", // the order entered ...
      "transfer:pending", // ... its funds held first,
      "trade", // then each trade, followed by its settlement:
      "transfer:post", // quote to the seller,
      "transfer:post", // the seller's fee,
      "transfer:post", // base to the buyer,
      "transfer:post", // the buyer's fee;
      "order.closed", // the maker is filled (its hold used up: nothing to release);
      "book.changed", // the book's depth is new.
    ]);
    expect(r.events[0]).toEqual({
      type: "order.placed",
      symbol: "BTC/USDT",
      orderId: "b1",
      memberId: "alice",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: 6_000_000n,
      quantity: 200_000n,
      money: undefined,
      stopProfitPrice: undefined,
      stopLossPrice: undefined,
      waiting: false,
    });
    expect(closedOf(r)).toEqual([{ type: "order.closed", symbol: "BTC/USDT", orderId: "s1", memberId: "bob", status: "filled" }]);
    // Settlement transfers pay out of the holds they name.
    expect(
      transfersOf(r)
        .slice(1)
        .map((t) => t.pendingId),
    ).toEqual(["hold:b1", "hold:b1", "hold:s1", "hold:s1"]);
    // A refusal changed nothing and says nothing: also one refused by the book after its hold was taken.
    expect(market.place(order({ orderId: "b2", memberId: "alice", side: "buy", price: 6_000_000n, quantity: 10n ** 12n }))).toEqual({
      code: "RISK_INSUFFICIENT_AVAILABLE",
      events: [],
    });
    market.place(order({ orderId: "s2", memberId: "bob", side: "sell", price: 6_100_000n, quantity: 100_000n }));
    const before = ledger.stateHash();
    expect(market.place(order({ orderId: "b3", memberId: "alice", side: "buy", price: 6_100_000n, quantity: 10_000n, tif: "POST_ONLY" }))).toEqual({
      code: "MATCHING_POST_ONLY_WOULD_TRADE",
      events: [],
    });
    expect(market.place(order({ orderId: "b4", memberId: "alice", side: "buy", price: 6_100_000n, quantity: 200_000n, tif: "FOK" }))).toEqual({
      code: "MATCHING_FOK_NOT_FILLED",
      events: [],
    });
    expect(ledger.stateHash()).toBe(before);
    expect(market.cancel("s2", "bob").code).toBe("OK");
    // A cancel: the order ends, its hold is released, the book changes.
    expect(market.cancel("b1", "alice").events.map((e) => (e.type === "transfer" ? `transfer:${e.phase}` : e.type))).toEqual([
      "order.closed",
      "transfer:void",
      "book.changed",
    ]);
  });

  it("refuses what the member cannot pay, a wrong tick or lot, and a too-small amount, changing nothing", () => {
    const { ledger, market, sound } = setup();
    const before = ledger.stateHash();
    expect(market.place(order({ orderId: "x1", memberId: "alice", side: "buy", price: 6_000_000n, quantity: 2_000_000n })).code).toBe(
      "RISK_INSUFFICIENT_AVAILABLE",
    );
    expect(market.place(order({ orderId: "x2", memberId: "bob", side: "sell", price: 6_000_000n, quantity: 3_000_000n })).code).toBe(
      "RISK_INSUFFICIENT_AVAILABLE",
    );
    expect(market.place(order({ orderId: "x3", memberId: "alice", side: "buy", price: 6_000_000n, quantity: 5n })).code).toBe("ORDER_TOO_SMALL");
    const coarse = new SpotMarket({ ...BTC_USDT, symbol: "C", tickSize: 50n, lotSize: 100n }, ledger);
    expect(coarse.place(order({ orderId: "x4", memberId: "alice", side: "buy", price: 6_000_010n, quantity: 1_000n })).code).toBe("ORDER_BAD_TICK");
    expect(coarse.place(order({ orderId: "x5", memberId: "alice", side: "buy", price: 6_000_050n, quantity: 1_050n })).code).toBe("ORDER_BAD_LOT");
    // Beyond 10^15 whole units (what the database keeps is checked here, not at commit).
    expect(market.place(order({ orderId: "x6", memberId: "bob", side: "sell", price: 10n ** 17n, quantity: 1_000n })).code).toBe("ORDER_OUT_OF_RANGE");
    expect(market.place(order({ orderId: "x7", memberId: "alice", side: "buy", price: 100n, quantity: 10n ** 21n })).code).toBe("ORDER_OUT_OF_RANGE");
    expect(market.place(order({ orderId: "x8", memberId: "bob", side: "sell", price: 10n ** 17n - 1n, quantity: 1_000n })).code).toBe("OK");
    expect(market.cancel("x8", "bob").code).toBe("OK");
    expect(ledger.stateHash()).toBe(before);
    sound();
  });

  it("keeps the unused part of a buy hold when it fills at a better price, and releases it at the end", () => {
    const { ledger, market, sound } = setup();
    market.place(order({ orderId: "s1", memberId: "bob", side: "sell", price: 5_900_000n, quantity: 100_000n }));
    // Alice bids 60,000 for 0.2 BTC: 0.1 fills at 59,000, 0.1 rests at 60,000.
    const r = market.place(order({ orderId: "b1", memberId: "alice", side: "buy", price: 6_000_000n, quantity: 200_000n }));
    sound();
    expect(closedOf(r).map((c) => c.orderId)).not.toContain("b1");
    expect(market.book.order("b1")).toMatchObject({ remaining: 100_000n });
    expect(ledger.held(spot("alice", "USDT"))).toBe(usdt(12_000n) - usdt(5_900n));
    const cancelled = market.cancel("b1", "alice");
    sound();
    expect(closedOf(cancelled)).toMatchObject([{ orderId: "b1", memberId: "alice", status: "cancelled", reason: "user" }]);
    expect(ledger.held(spot("alice", "USDT"))).toBe(0n);
    expect(ledger.available(spot("alice", "USDT"))).toBe(usdt(100_000n) - usdt(5_900n));
    expect(market.cancel("b1", "alice").code).toBe("ORDER_UNKNOWN");
  });

  it("buys at market by money or by quantity, walking the book", () => {
    const { ledger, market, sound } = setup();
    market.place(order({ orderId: "s1", memberId: "bob", side: "sell", price: 6_000_000n, quantity: 100_000n }));
    market.place(order({ orderId: "s2", memberId: "bob", side: "sell", price: 6_100_000n, quantity: 100_000n }));
    // 9,050 USDT buys 0.1 at 60,000 (6,000) and 0.05 at 61,000 (3,050).
    const byMoney = market.place({ orderId: "m1", memberId: "alice", side: "buy", type: "market", money: usdt(9_050n), tif: "IOC" });
    sound();
    expect(tradesOf(byMoney).map((t) => [t.price, t.quantity])).toEqual([
      [6_000_000n, 100_000n],
      [6_100_000n, 50_000n],
    ]);
    expect(ledger.available(spot("alice", "USDT"))).toBe(usdt(100_000n - 9_050n));
    const byQuantity = market.place({ orderId: "m2", memberId: "alice", side: "buy", type: "market", quantity: 80_000n, tif: "IOC" });
    sound();
    expect(tradesOf(byQuantity).map((t) => t.quantity)).toEqual([50_000n]);
    expect(closedOf(byQuantity).at(-1)).toMatchObject({ orderId: "m2", status: "cancelled", reason: "no-liquidity" });
    expect(ledger.held(spot("alice", "USDT"))).toBe(0n);
    expect(closedOf(market.place({ orderId: "m3", memberId: "alice", side: "buy", type: "market", quantity: 10_000n, tif: "IOC" }))).toMatchObject([
      { orderId: "m3", memberId: "alice", status: "cancelled", reason: "no-liquidity" },
    ]);
  });

  it("never loses or creates an asset and never lets a balance go negative (property)", () => {
    const members = ["a", "b", "c"];
    let stopsFired = 0;
    const cmd = fc.record({
      kind: fc.constantFrom("limit", "limit", "limit", "market-qty", "market-money", "cancel", "stop", "stop-market"),
      // A stop's distance from the last price (profit, loss); a negative one is on the wrong side and refused.
      stopAt: fc.tuple(fc.option(fc.bigInt({ min: -200n, max: 3_000n })), fc.option(fc.bigInt({ min: -200n, max: 3_000n }))),
      member: fc.constantFrom(...members),
      side: fc.constantFrom("buy" as const, "sell" as const),
      price: fc.bigInt({ min: 5_990_000n, max: 6_010_000n }),
      quantity: fc.bigInt({ min: 10n, max: 400_000n }),
      tif: fc.constantFrom("GTC" as const, "IOC" as const, "FOK" as const, "POST_ONLY" as const),
      target: fc.nat(60),
    });
    fc.assert(
      fc.property(fc.array(cmd, { maxLength: 60, size: "max" }), (commands) => {
        const first = run(commands, true);
        // Replaying the same stream on a fresh market ends in the same state (book, stops, ledger).
        const replay = run(commands, false);
        expect(replay).toEqual(first);
      }),
      { numRuns: 200 },
    );
    // The streams do exercise stop orders (the invariants cover waiting and fired ones).
    expect(stopsFired).toBeGreaterThan(200);

    function run(commands: Array<typeof cmd extends fc.Arbitrary<infer T> ? T : never>, check: boolean) {
      const ledger = new Ledger();
      const market = new SpotMarket(BTC_USDT, ledger);
      for (const m of members) {
        ledger.deposit(`usdt-${m}`, spot(m, "USDT"), usdt(50_000n));
        ledger.deposit(`btc-${m}`, spot(m, "BTC"), btc(1n));
      }
      const owner: string[] = [];
      commands.forEach((c, i) => {
        owner.push(c.member);
        const orderId = `o${i}`;
        if (c.kind === "cancel") market.cancel(`o${c.target}`, owner[c.target] ?? c.member);
        else if (c.kind === "stop" || c.kind === "stop-market") {
          // Stop-profit above the last price for a sell, below for a buy; stop-loss the other way.
          const last = market.lastPrice ?? 6_000_000n;
          const up = c.side === "sell" ? 1n : -1n;
          const [profitAt, lossAt] = c.stopAt;
          const stops = {
            stopProfitPrice: profitAt === null ? undefined : last + up * profitAt,
            stopLossPrice: lossAt === null ? (profitAt === null ? last - up * 100n : undefined) : last - up * lossAt,
          };
          const entry =
            c.kind === "stop"
              ? { type: "limit" as const, price: c.price, quantity: c.quantity, tif: c.tif }
              : c.side === "buy"
                ? { type: "market" as const, money: c.quantity * 1_000_000n, tif: "IOC" as const }
                : { type: "market" as const, quantity: c.quantity, tif: "IOC" as const };
          market.place({ orderId, memberId: c.member, side: c.side, ...entry, ...stops });
        } else {
          const r =
            c.kind === "market-money"
              ? market.place({ orderId, memberId: c.member, side: "buy", type: "market", money: c.quantity * 1_000_000n, tif: "IOC" })
              : c.kind === "market-qty"
                ? market.place({ orderId, memberId: c.member, side: c.side, type: "market", quantity: c.quantity, tif: "IOC" })
                : market.place({ orderId, memberId: c.member, side: c.side, type: "limit", price: c.price, quantity: c.quantity, tif: c.tif });
          if (check) stopsFired += triggeredOf(r).length;
        }
        if (!check) return;
        expect(ledger.checkInvariants()).toEqual([]);
        expect(market.checkInvariants()).toEqual([]);
      });
      // Deposits are all that entered: members' and fee balances add up to them, per asset.
      const total = (asset: string) => members.reduce((sum, m) => sum + ledger.posted(spot(m, asset)), ledger.posted(feeAccount(asset)));
      expect(total("USDT")).toBe(usdt(150_000n));
      expect(total("BTC")).toBe(btc(3n));
      return { ledger: ledger.stateHash(), market: market.stateHash(), book: market.book.size };
    }
  });
});
