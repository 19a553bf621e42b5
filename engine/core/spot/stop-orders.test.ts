import { describe, expect, it } from "vitest";
import { closedOf, isWaiting, tradesOf, transfersOf, triggeredOf } from "../../testing/core-events";
import { Ledger, type AccountRef } from "../ledger/ledger";
import type { Side } from "../matching/order-book";
import { holdOf, SpotMarket, type SpotCode, type SpotPlaceCommand, type SpotSymbolConfig } from "./spot-market";
import { StopBook, triggerDirection, type StopKind } from "./stop-orders";

// BTC/USDT as in spot-market.test.ts: price at 2 decimals, quantity at 6, both assets at 8.
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
  minQuantity: 10n,
  makerFeeBps: 10n,
  takerFeeBps: 20n,
};
const usdt = (n: bigint) => n * 10n ** 8n;
const btc = (n: bigint) => n * 10n ** 8n;
const px = (whole: bigint) => whole * 100n; // a price in whole USDT
const qty = (millis: bigint) => millis * 1_000n; // a quantity in thousandths of a BTC
const spot = (owner: string, asset: string): AccountRef => ({ owner, kind: "spot", asset });

describe("stop book: trigger sides", () => {
  it.each<[Side, StopKind, "rise" | "fall"]>([
    ["sell", "profit", "rise"],
    ["sell", "loss", "fall"],
    ["buy", "profit", "fall"],
    ["buy", "loss", "rise"],
  ])("a %s stop-%s fires on a %s", (side, kind, direction) => {
    expect(triggerDirection(side, kind)).toBe(direction);
  });

  it("fires exactly the triggers a move crossed, nearest first, in arrival order within a price", () => {
    const book = new StopBook();
    book.add({ id: "r105a", side: "sell", profitPrice: 105n });
    book.add({ id: "r101", side: "buy", lossPrice: 101n });
    book.add({ id: "r105b", side: "sell", profitPrice: 105n });
    book.add({ id: "r110", side: "sell", profitPrice: 110n });
    book.add({ id: "f95", side: "sell", lossPrice: 95n });
    book.add({ id: "f99", side: "buy", profitPrice: 99n });
    expect(book.checkInvariants(100n)).toEqual([]);
    expect(book.next()).toEqual({ rise: 101n, fall: 99n });
    expect(book.fire(100n)).toEqual([]);
    expect(book.fire(106n).map((f) => [f.id, f.kind, f.stopPrice])).toEqual([
      ["r101", "loss", 101n],
      ["r105a", "profit", 105n],
      ["r105b", "profit", 105n],
    ]);
    expect(book.checkInvariants(106n)).toEqual([]);
    expect(book.fire(90n).map((f) => f.id)).toEqual(["f99", "f95"]);
    expect([...book.all()].map((e) => e.id)).toEqual(["r110"]);
    expect(book.checkInvariants(90n)).toEqual([]);
  });

  it("drops the other trigger of a one-cancels-other stop when one fires, and removes both on cancel", () => {
    const book = new StopBook();
    book.add({ id: "oco", side: "sell", profitPrice: 110n, lossPrice: 90n });
    book.add({ id: "oco2", side: "buy", profitPrice: 90n, lossPrice: 110n });
    expect(book.fire(110n).map((f) => [f.id, f.kind])).toEqual([
      ["oco", "profit"],
      ["oco2", "loss"],
    ]);
    expect(book.size).toBe(0);
    expect(book.fire(80n)).toEqual([]);
    expect(book.checkInvariants(80n)).toEqual([]);

    book.add({ id: "c", side: "sell", profitPrice: 110n, lossPrice: 90n });
    book.add({ id: "d", side: "sell", profitPrice: 110n });
    expect(book.remove("c")).toBe(true);
    expect(book.remove("c")).toBe(false);
    expect(book.checkInvariants(100n)).toEqual([]);
    expect(book.fire(200n).map((f) => f.id)).toEqual(["d"]);
  });

  it("fires a stop once even if both its triggers are due (placed before any trade)", () => {
    const book = new StopBook();
    book.add({ id: "both", side: "buy", profitPrice: 120n, lossPrice: 80n });
    expect(book.fire(100n).map((f) => [f.id, f.kind])).toEqual([["both", "loss"]]);
    expect(book.checkInvariants(100n)).toEqual([]);
  });

  it("keeps levels sorted through adds and removes at many prices", () => {
    const book = new StopBook();
    const prices = [7n, 3n, 9n, 1n, 5n, 3n, 8n, 2n, 9n, 6n];
    prices.forEach((p, i) => book.add({ id: `s${i}`, side: i % 2 ? "sell" : "buy", profitPrice: p, lossPrice: i % 3 ? undefined : p + 100n }));
    expect(book.checkInvariants()).toEqual([]);
    for (const i of [4, 0, 9, 2]) book.remove(`s${i}`);
    expect(book.checkInvariants()).toEqual([]);
    expect(book.size).toBe(6);
  });
});

/**
 * A market where the last price is 60,000 (bob sold 0.01 BTC to alice), with carol and dave
 * holding both assets to place stops. `tradeAt` makes one trade between alice and bob.
 */
function setup(config: SpotSymbolConfig = BTC_USDT) {
  const ledger = new Ledger();
  const market = new SpotMarket(config, ledger);
  for (const m of ["alice", "bob", "carol", "dave"]) {
    ledger.deposit(`d-${m}-usdt`, spot(m, "USDT"), usdt(1_000_000n));
    ledger.deposit(`d-${m}-btc`, spot(m, "BTC"), btc(10n));
  }
  const sound = () => {
    expect(ledger.checkInvariants()).toEqual([]);
    expect(market.checkInvariants()).toEqual([]);
  };
  let n = 0;
  const tradeAt = (price: bigint, quantity = qty(10n)) => {
    const maker = market.place({ orderId: `t${++n}s`, memberId: "bob", side: "sell", type: "limit", price, quantity, tif: "GTC" });
    expect(maker.code).toBe("OK");
    const taker = market.place({ orderId: `t${n}b`, memberId: "alice", side: "buy", type: "limit", price, quantity, tif: "GTC" });
    expect(tradesOf(taker)[0]?.price).toBe(price);
    sound();
    return taker;
  };
  tradeAt(px(60_000n));
  return { ledger, market, sound, tradeAt };
}
const stop = (o: Partial<SpotPlaceCommand> & Pick<SpotPlaceCommand, "orderId" | "memberId" | "side">): SpotPlaceCommand => ({
  type: "limit",
  tif: "GTC",
  ...o,
});

describe("spot market: stop orders", () => {
  // Each stop enters as a limit order far from the market once fired, so it rests on the book.
  it.each<[Side, StopKind, bigint, bigint, bigint]>([
    // side, kind, stop price, a price that does not fire it, the price that does
    ["sell", "profit", px(61_000n), px(60_900n), px(61_000n)],
    ["sell", "loss", px(59_000n), px(59_100n), px(59_000n)],
    ["buy", "profit", px(59_000n), px(59_100n), px(58_500n)],
    ["buy", "loss", px(61_000n), px(60_900n), px(61_500n)],
  ])("a %s stop-%s at %s waits, then fires when the last price reaches it", (side, kind, stopPrice, near, through) => {
    const { ledger, market, sound, tradeAt } = setup();
    const limit = side === "sell" ? px(90_000n) : px(30_000n); // never crosses
    const asset = side === "sell" ? "BTC" : "USDT";
    const heldBefore = ledger.held(spot("carol", asset));
    const placed = market.place(
      stop({ orderId: "st", memberId: "carol", side, price: limit, quantity: qty(100n), [kind === "profit" ? "stopProfitPrice" : "stopLossPrice"]: stopPrice }),
    );
    expect(placed.code).toBe("OK");
    expect(placed.events.map((e) => e.type)).toEqual(["order.placed", "transfer"]);
    expect(isWaiting(placed)).toBe(true);
    // Held at placement: the base quantity for a sell, the limit value for a buy.
    const hold = side === "sell" ? qty(100n) * 100n : market.value(limit, qty(100n));
    expect(ledger.held(spot("carol", asset)) - heldBefore).toBe(hold);
    expect(market.book.order("st")).toBeUndefined();
    sound();

    expect(triggeredOf(tradeAt(near))).toEqual([]);
    expect(market.waitingOrder("st")).toBeDefined();
    const fired = tradeAt(through);
    expect(triggeredOf(fired)).toMatchObject([{ type: "order.triggered", orderId: "st", memberId: "carol", side, kind, stopPrice, lastPrice: through }]);
    // The command's own order filled; the stop it fired rests, still open at the command's end.
    expect(closedOf(fired).map((c) => c.orderId)).not.toContain("st");
    expect(fired.events.at(-1)).toEqual({ type: "book.changed", symbol: "BTC/USDT" });
    expect(market.waitingOrder("st")).toBeUndefined();
    expect(market.book.order("st")).toMatchObject({ side, price: limit, remaining: qty(100n), memberId: "carol" });
    // The same hold now backs the resting order.
    expect(ledger.held(spot("carol", asset)) - heldBefore).toBe(hold);
    sound();
  });

  it("refuses a stop that would fire at once, on the wrong tick, crossed, or a market buy by amount, changing nothing", () => {
    const { ledger, market, sound } = setup();
    const before = ledger.stateHash();
    const cases: Array<[Partial<SpotPlaceCommand>, SpotCode]> = [
      [{ side: "sell", stopProfitPrice: px(60_000n) }, "STOP_PROFIT_WOULD_TRIGGER"],
      [{ side: "sell", stopProfitPrice: px(59_000n) }, "STOP_PROFIT_WOULD_TRIGGER"],
      [{ side: "sell", stopLossPrice: px(60_000n) }, "STOP_LOSS_WOULD_TRIGGER"],
      [{ side: "buy", stopProfitPrice: px(60_000n) }, "STOP_PROFIT_WOULD_TRIGGER"],
      [{ side: "buy", stopLossPrice: px(59_999n) }, "STOP_LOSS_WOULD_TRIGGER"],
      [{ side: "sell", stopProfitPrice: px(61_000n), stopLossPrice: px(60_500n) }, "STOP_LOSS_WOULD_TRIGGER"],
      [{ side: "sell", stopProfitPrice: px(59_000n), stopLossPrice: px(61_000n) }, "STOP_PRICES_CROSSED"],
      [{ side: "buy", stopProfitPrice: px(61_000n), stopLossPrice: px(61_000n) }, "STOP_PRICES_CROSSED"],
      [{ side: "buy", type: "market", price: undefined, quantity: qty(1n), tif: "IOC", stopLossPrice: px(61_000n) }, "STOP_MARKET_BUY_BY_AMOUNT"],
      [{ side: "sell", type: "market", price: undefined, tif: "POST_ONLY", stopLossPrice: px(59_000n) }, "ORDER_BAD_COMMAND"],
      [{ side: "sell", quantity: qty(20_000n), stopLossPrice: px(59_000n) }, "RISK_INSUFFICIENT_AVAILABLE"],
      [{ side: "buy", stopLossPrice: 0n }, "ORDER_BAD_COMMAND"],
    ];
    cases.forEach(([o, code], i) => {
      const r = market.place({ orderId: `bad${i}`, memberId: "carol", side: "sell", type: "limit", price: px(60_000n), quantity: qty(10n), tif: "GTC", ...o });
      expect(
        r.code,
        JSON.stringify(o, (_k, v) => (typeof v === "bigint" ? String(v) : v)),
      ).toBe(code);
      expect(isWaiting(r)).toBe(false);
    });
    const coarse = new SpotMarket({ ...BTC_USDT, symbol: "C", tickSize: 50n }, ledger);
    expect(
      coarse.place(stop({ orderId: "tick", memberId: "carol", side: "sell", price: px(60_000n), quantity: qty(10n), stopLossPrice: px(59_000n) + 10n })).code,
    ).toBe("ORDER_BAD_TICK");
    expect(ledger.stateHash()).toBe(before);
    expect(market.waitingCount).toBe(0);
    sound();
  });

  it("accepts a stop at any price before the first trade, and fires it on the first trade that reaches it", () => {
    const ledger = new Ledger();
    const market = new SpotMarket(BTC_USDT, ledger);
    ledger.deposit("d1", spot("carol", "BTC"), btc(1n));
    ledger.deposit("d2", spot("bob", "BTC"), btc(1n));
    ledger.deposit("d3", spot("alice", "USDT"), usdt(1_000_000n));
    expect(market.lastPrice).toBeUndefined();
    expect(
      isWaiting(
        market.place(stop({ orderId: "s", memberId: "carol", side: "sell", type: "market", tif: "IOC", quantity: qty(10n), stopLossPrice: px(70_000n) })),
      ),
    ).toBe(true);
    market.place(stop({ orderId: "a", memberId: "alice", side: "buy", price: px(60_000n), quantity: qty(50n) }));
    const first = market.place({ orderId: "b", memberId: "bob", side: "sell", type: "market", quantity: qty(10n), tif: "IOC" });
    expect(triggeredOf(first).map((t) => t.orderId)).toEqual(["s"]);
    // Carol's market sell went into alice's remaining bid.
    expect(tradesOf(first).map((t) => [t.takerOrderId, t.makerOrderId, t.quantity])).toEqual([
      ["b", "a", qty(10n)],
      ["s", "a", qty(10n)],
    ]);
    expect(closedOf(first)).toMatchObject([
      { orderId: "b", memberId: "bob", status: "filled" },
      { orderId: "s", memberId: "carol", status: "filled" },
    ]);
    expect(ledger.checkInvariants()).toEqual([]);
    expect(market.checkInvariants()).toEqual([]);
  });

  it("one-cancels-other: the first trigger reached fires the order once, the other is gone", () => {
    const { ledger, market, sound, tradeAt } = setup();
    market.place(
      stop({
        orderId: "oco",
        memberId: "carol",
        side: "sell",
        price: px(90_000n),
        quantity: qty(100n),
        stopProfitPrice: px(61_000n),
        stopLossPrice: px(59_000n),
      }),
    );
    sound();
    expect(triggeredOf(tradeAt(px(59_000n))).map((t) => [t.orderId, t.kind])).toEqual([["oco", "loss"]]);
    expect(triggeredOf(tradeAt(px(61_000n)))).toEqual([]);
    expect(market.book.order("oco")).toMatchObject({ remaining: qty(100n) });
    expect(ledger.held(spot("carol", "BTC"))).toBe(qty(100n) * 100n);
    sound();
  });

  it("a fired order trades at once, and what it trades fires the next stop in the same command (cascade)", () => {
    const { ledger, market, sound, tradeAt } = setup();
    // Bids under the market; stop-loss market sells waiting at 59,000 and 58,000.
    market.place(stop({ orderId: "bid58", memberId: "alice", side: "buy", price: px(58_000n), quantity: qty(50n) }));
    market.place(stop({ orderId: "bid57", memberId: "alice", side: "buy", price: px(57_000n), quantity: qty(50n) }));
    market.place(stop({ orderId: "carol-sl", memberId: "carol", side: "sell", type: "market", tif: "IOC", quantity: qty(50n), stopLossPrice: px(59_000n) }));
    market.place(stop({ orderId: "dave-sl", memberId: "dave", side: "sell", type: "market", tif: "IOC", quantity: qty(50n), stopLossPrice: px(58_000n) }));
    // A buy stop-profit (buy the dip) that the cascade reaches too, entering as a limit at 58,000.
    market.place(stop({ orderId: "dave-dip", memberId: "dave", side: "buy", price: px(58_000n), quantity: qty(20n), stopProfitPrice: px(57_000n) }));
    sound();
    const carolUsdt = ledger.available(spot("carol", "USDT"));
    const r = tradeAt(px(59_000n));
    expect(triggeredOf(r).map((t) => [t.orderId, t.lastPrice])).toEqual([
      ["carol-sl", px(59_000n)],
      ["dave-sl", px(58_000n)],
      ["dave-dip", px(57_000n)],
    ]);
    expect(tradesOf(r).map((t) => [t.takerOrderId, t.makerOrderId, t.price])).toEqual([
      ["t2b", "t2s", px(59_000n)],
      ["carol-sl", "bid58", px(58_000n)],
      ["dave-sl", "bid57", px(57_000n)],
    ]);
    expect(closedOf(r).map((c) => [c.orderId, c.status])).toMatchObject([
      ["t2s", "filled"],
      ["t2b", "filled"],
      ["bid58", "filled"],
      ["carol-sl", "filled"],
      ["bid57", "filled"],
      ["dave-sl", "filled"],
    ]);
    // dave's dip buy rests at 58,000 (nothing left to buy), with its order id.
    expect(market.book.order("dave-dip")).toMatchObject({ side: "buy", price: px(58_000n), remaining: qty(20n) });
    expect(market.lastPrice).toBe(px(57_000n));
    // Carol sold 0.05 BTC at 58,000 as taker (0.2 % fee in USDT).
    expect(ledger.available(spot("carol", "USDT")) - carolUsdt).toBe(usdt(2_900n) - (usdt(2_900n) * 20n) / 10_000n);
    expect(market.waitingCount).toBe(0);
    sound();
  });

  it("ends a cascade of many stops after each fired once, however the orders trade back and forth", () => {
    const { market, sound, tradeAt } = setup();
    // Forty sell stop-losses, each with a bid one step lower to sell into.
    for (let i = 1n; i <= 40n; i++) {
      market.place(stop({ orderId: `bid${i}`, memberId: "alice", side: "buy", price: px(59_000n - i * 10n), quantity: qty(1n) }));
      market.place(
        stop({
          orderId: `sl${i}`,
          memberId: i % 2n ? "carol" : "dave",
          side: "sell",
          type: "market",
          tif: "IOC",
          quantity: qty(1n),
          stopLossPrice: px(59_000n - (i - 1n) * 10n),
        }),
      );
    }
    // Buy stops that fire on the way back up and the way down, buying above the market.
    market.place(stop({ orderId: "up", memberId: "dave", side: "buy", type: "market", tif: "IOC", money: usdt(100n), stopProfitPrice: px(58_700n) }));
    market.place(stop({ orderId: "ask", memberId: "bob", side: "sell", price: px(60_000n), quantity: qty(100n) }));
    sound();
    const r = tradeAt(px(59_000n));
    expect(triggeredOf(r)).toHaveLength(41);
    expect(new Set(triggeredOf(r).map((t) => t.orderId)).size).toBe(41);
    expect(market.waitingCount).toBe(0);
    // The dip buy fired at 58,700 took 100 USDT of the 60,000 ask (the price went back up), and
    // the stop-losses already fired went on selling down to the last bid.
    expect(tradesOf(r).find((t) => t.takerOrderId === "up")).toMatchObject({ price: px(60_000n), makerOrderId: "ask" });
    expect(
      triggeredOf(r)
        .map((t) => t.orderId)
        .slice(29, 33),
    ).toEqual(["sl30", "sl31", "up", "sl32"]);
    expect(market.lastPrice).toBe(px(58_600n));
    sound();
  });

  it("a fired stop takes its time priority when it fires, behind orders placed while it waited", () => {
    const { market, sound, tradeAt } = setup();
    market.place(stop({ orderId: "stop-bid", memberId: "carol", side: "buy", price: px(59_500n), quantity: qty(10n), stopLossPrice: px(60_500n) }));
    market.place(stop({ orderId: "early-bid", memberId: "dave", side: "buy", price: px(59_500n), quantity: qty(10n) }));
    tradeAt(px(60_500n));
    expect(market.book.order("stop-bid")).toBeDefined();
    market.place(stop({ orderId: "late-bid", memberId: "dave", side: "buy", price: px(59_500n), quantity: qty(10n) }));
    const hit = market.place({ orderId: "hit", memberId: "bob", side: "sell", type: "market", quantity: qty(20n), tif: "IOC" });
    expect(tradesOf(hit).map((t) => t.makerOrderId)).toEqual(["early-bid", "stop-bid"]);
    sound();
  });

  it("cancelling a waiting stop releases its whole hold; only its owner can; it can never fire after", () => {
    const { ledger, market, sound, tradeAt } = setup();
    const cases: Array<[SpotPlaceCommand, string, bigint]> = [
      [
        stop({ orderId: "c-sell", memberId: "carol", side: "sell", price: px(61_000n), quantity: qty(30n), stopProfitPrice: px(62_000n) }),
        "BTC",
        qty(30n) * 100n,
      ],
      [stop({ orderId: "c-buy", memberId: "carol", side: "buy", price: px(61_000n), quantity: qty(30n), stopLossPrice: px(62_000n) }), "USDT", usdt(1_830n)],
      [
        stop({ orderId: "c-mbuy", memberId: "carol", side: "buy", type: "market", tif: "IOC", money: usdt(777n), stopLossPrice: px(62_000n) }),
        "USDT",
        usdt(777n),
      ],
      [
        stop({ orderId: "c-msell", memberId: "carol", side: "sell", type: "market", tif: "IOC", quantity: qty(5n), stopLossPrice: px(59_000n) }),
        "BTC",
        qty(5n) * 100n,
      ],
    ];
    for (const [cmd, asset, hold] of cases) {
      const before = ledger.stateHash();
      const held = ledger.held(spot("carol", asset));
      expect(isWaiting(market.place(cmd))).toBe(true);
      expect(ledger.held(spot("carol", asset)) - held).toBe(hold);
      sound();
      expect(market.cancel(cmd.orderId, "dave").code).toBe("ORDER_NOT_OWNER");
      const cancelled = market.cancel(cmd.orderId, "carol");
      expect(closedOf(cancelled)).toMatchObject([{ orderId: cmd.orderId, memberId: "carol", status: "cancelled", reason: "user" }]);
      expect(transfersOf(cancelled)).toEqual([expect.objectContaining({ phase: "void", amount: hold, pendingId: `hold:${cmd.orderId}` })]);
      expect(ledger.held(spot("carol", asset))).toBe(held);
      // Available again; the settlement ids differ, so compare what matters: balances and holds.
      expect(ledger.stateHash()).toBe(before);
      expect(market.cancel(cmd.orderId, "carol").code).toBe("ORDER_UNKNOWN");
      sound();
    }
    expect(triggeredOf(tradeAt(px(62_000n)))).toEqual([]);
    expect(triggeredOf(tradeAt(px(59_000n)))).toEqual([]);
  });

  it("a fired order never fails for balance: its funds were held when it was placed", () => {
    const { ledger, market, sound, tradeAt } = setup();
    market.place(stop({ orderId: "bid", memberId: "alice", side: "buy", price: px(58_000n), quantity: qty(100n) }));
    market.place(stop({ orderId: "all-in", memberId: "carol", side: "sell", type: "market", tif: "IOC", quantity: qty(100n), stopLossPrice: px(59_000n) }));
    // Carol moves every other BTC away.
    const rest = ledger.available(spot("carol", "BTC"));
    expect(ledger.transfer("away", spot("carol", "BTC"), { owner: "carol", kind: "funding", asset: "BTC" }, rest).code).toBe("OK");
    expect(ledger.available(spot("carol", "BTC"))).toBe(0n);
    const r = tradeAt(px(59_000n));
    expect(closedOf(r)).toContainEqual(expect.objectContaining({ orderId: "all-in", memberId: "carol", status: "filled" }));
    expect(ledger.posted(spot("carol", "BTC"))).toBe(0n);
    sound();
  });

  it("closes a fired stop the book refuses (post-only that would trade, fill-or-kill short) and releases its hold", () => {
    const { ledger, market, sound, tradeAt } = setup();
    market.place(stop({ orderId: "ask", memberId: "bob", side: "sell", price: px(60_100n), quantity: qty(10n) }));
    market.place(stop({ orderId: "po", memberId: "carol", side: "buy", price: px(60_200n), quantity: qty(10n), tif: "POST_ONLY", stopLossPrice: px(60_050n) }));
    market.place(stop({ orderId: "fok", memberId: "dave", side: "buy", price: px(60_200n), quantity: qty(500n), tif: "FOK", stopLossPrice: px(60_050n) }));
    const r = tradeAt(px(60_050n));
    expect(triggeredOf(r).map((t) => t.orderId)).toEqual(["po", "fok"]);
    expect(closedOf(r).slice(-2)).toMatchObject([
      { orderId: "po", memberId: "carol", status: "cancelled", reason: "post-only" },
      { orderId: "fok", memberId: "dave", status: "cancelled", reason: "fok" },
    ]);
    expect(ledger.held(spot("carol", "USDT"))).toBe(0n);
    expect(ledger.held(spot("dave", "USDT"))).toBe(0n);
    sound();
  });

  it("restores waiting stops and the last price, then fires them as before", () => {
    const { ledger, market, tradeAt } = setup();
    const cmd = stop({
      orderId: "r",
      memberId: "carol",
      side: "sell",
      price: px(61_500n),
      quantity: qty(10n),
      stopProfitPrice: px(61_000n),
      stopLossPrice: px(59_000n),
    });
    market.place(cmd);
    // A second market rebuilt the way the service does at start: on a ledger of its own with the
    // member's balance restored, and the stop with what its hold reserves.
    const restored = new Ledger();
    const carolBtc = { owner: "carol", kind: "spot", asset: "BTC" } satisfies AccountRef;
    restored.restoreBalance("carol/spot/BTC", ledger.posted(carolBtc), ledger.held(carolBtc));
    const again = new SpotMarket(BTC_USDT, restored, () => `again:${Math.random()}`);
    const other = new SpotMarket({ ...BTC_USDT, symbol: "X" }, new Ledger());
    other.restoreLastPrice(market.lastPrice);
    expect(other.lastPrice).toBe(px(60_000n));
    again.restoreLastPrice(market.lastPrice);
    again.restoreStop(cmd, ledger.holdRemaining(holdOf("r")));
    expect(again.checkInvariants()).toEqual([]);
    // Its held amount is its hold (the asset does not sum to zero: only carol's account is restored here).
    expect(restored.checkInvariants().filter((p) => !p.startsWith("BTC: balances sum"))).toEqual([]);
    expect(restored.holdRemaining(holdOf("r"))).toBe(ledger.holdRemaining(holdOf("r")));
    expect(restored.stateHash()).not.toBe(new Ledger().stateHash());
    expect(again.waitingOrder("r")).toMatchObject({ stopProfitPrice: px(61_000n) });
    // The original market keeps working the same way.
    expect(triggeredOf(tradeAt(px(61_000n))).map((t) => t.kind)).toEqual(["profit"]);
  });
});
