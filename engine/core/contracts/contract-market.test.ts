import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromMinor, toMinor } from "../../../protocol/money";
import { clearingAccount, feeAccount, insuranceAccount, Ledger, type AccountRef } from "../ledger/ledger";
import { contractValue, maintenanceMargin, RATE_ONE, unrealisedPnl, type RiskTier } from "./contract-math";
import { ContractMarket, type ContractEvent, type ContractMarketConfig, type ContractPlace, type ContractStopPlace } from "./contract-market";

const usdt = (text: string) => toMinor(text, 8);
const rate = (percent: string) => toMinor(percent, 6);
const TIERS: RiskTier[] = [
  { maxValue: usdt("50000"), maxLeverage: 100, mmr: rate("0.4") },
  { maxValue: usdt("250000"), maxLeverage: 50, mmr: rate("0.5") },
  { maxValue: usdt("100000000"), maxLeverage: 5, mmr: rate("5") },
];

const LINEAR: ContractMarketConfig = {
  symbol: "BTC/USDT",
  spec: { kind: "linear", priceScale: 1, settleScale: 8, multiplier: 1n, multiplierScale: 3 },
  settleAsset: "USDT",
  tickSize: 1n,
  minQty: 1n,
  maxQty: 1_000_000n,
  makerFeeBps: 2,
  takerFeeBps: 5,
  tiers: TIERS,
  priceBand: rate("5"),
  defaultLeverage: 20,
};
const INVERSE: ContractMarketConfig = {
  symbol: "BTC/USD",
  spec: { kind: "inverse", priceScale: 1, settleScale: 8, multiplier: 100n, multiplierScale: 0 },
  settleAsset: "BTC",
  tickSize: 5n,
  minQty: 1n,
  maxQty: 100_000n,
  makerFeeBps: 2,
  takerFeeBps: 5,
  tiers: [
    { maxValue: usdt("5"), maxLeverage: 100, mmr: rate("0.5") },
    { maxValue: usdt("1000"), maxLeverage: 20, mmr: rate("2") },
  ],
  priceBand: rate("5"),
  defaultLeverage: 20,
};

const price = (text: string) => toMinor(text, 1);
const contract = (member: string, asset = "USDT"): AccountRef => ({ owner: member, kind: "contract", asset });
const margin = (member: string, asset = "USDT"): AccountRef => ({ owner: member, kind: "position", asset });

function setUp(config: ContractMarketConfig, members: Record<string, string>) {
  const ledger = new Ledger();
  let n = 0;
  const market = new ContractMarket(config, ledger, () => `t${++n}`);
  for (const [member, amount] of Object.entries(members)) ledger.deposit(`dep-${member}`, contract(member, config.settleAsset), toMinor(amount, 8));
  const events: ContractEvent[] = [];
  const place = (cmd: Partial<ContractPlace> & Pick<ContractPlace, "orderId" | "memberId" | "side" | "qty">) =>
    market.place({ action: "open", type: "limit", tif: "GTC", leverage: 10, mark: price("50000"), ...cmd }, events);
  const shown = (ref: AccountRef) => fromMinor(ledger.posted(ref), 8);
  return { ledger, market, events, place, shown };
}

/** The market brought back from its snapshot into a copy of its ledger (balances and holds), as a start does. */
function restoredCopy(config: ContractMarketConfig, market: ContractMarket, ledger: Ledger) {
  const copy = new Ledger();
  for (const [key, posted, heldAmount] of ledger.accounts()) copy.restoreBalance(key, posted, heldAmount);
  for (const [id, key, holdAsset, remaining] of ledger.openHolds()) copy.restoreHold(id, key, holdAsset, remaining);
  let n = 1000;
  const restored = new ContractMarket(config, copy, () => `r${++n}`);
  restored.restore(JSON.parse(JSON.stringify(market.snapshot())));
  return { restored, copy };
}

describe("a linear contract market", () => {
  it("previews where an opening order would leave the liquidation price: the same price its fill gives, changing nothing", () => {
    const { market, place, events } = setUp(LINEAR, { alice: "1000", bob: "3000" });
    expect(market.setLeverage("alice", 10, events)).toBe("OK");
    const first = market.previewOpen("alice", "buy", 100n, price("50000"));
    expect(first).toMatchObject({ leverage: 10 });
    expect(market.position("alice")).toBeUndefined();
    expect(place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 300n })).toBe("OK");
    expect(place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 100n })).toBe("OK");
    expect(first !== "CONTRACT_CLOSE_FIRST" && first.liquidation).toBe(market.position("alice")!.liquidation);
    // Adding to the long: the position grows by the contracts and their margin.
    const more = market.previewOpen("alice", "buy", 50n, price("50000"));
    expect(place({ orderId: "a2", memberId: "alice", side: "buy", price: price("50000"), qty: 50n })).toBe("OK");
    expect(more !== "CONTRACT_CLOSE_FIRST" && more.liquidation).toBe(market.position("alice")!.liquidation);
    // The other side is a close first. A preview tells nothing and moves nothing.
    const told = events.length;
    expect(market.previewOpen("alice", "sell", 1n, price("50000"))).toBe("CONTRACT_CLOSE_FIRST");
    market.previewOpen("alice", "buy", 1n, price("50000"));
    expect(events.length).toBe(told);
    expect(market.checkInvariants()).toEqual([]);
  });

  it("opens a 10x long against a short, holds margin and fees, and closes it for example L1's profit", () => {
    const { ledger, market, place, shown } = setUp(LINEAR, { alice: "1000", bob: "1000", carol: "1000" });
    // Bob rests a short of 100 contracts at 50,000.0; Alice takes it long with 10x.
    expect(place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 100n })).toBe("OK");
    expect(fromMinor(ledger.held(contract("bob")), 8)).toBe("502.5"); // 500 margin + 2.5 taker fee held
    expect(place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 100n })).toBe("OK");
    expect(market.position("alice")).toMatchObject({ side: "long", qty: 100n, cost: usdt("5000"), margin: usdt("500"), leverage: 10 });
    expect(market.position("bob")).toMatchObject({ side: "short", qty: 100n, cost: usdt("5000"), margin: usdt("500") });
    // Fees: taker 5 bps (2.5), maker 2 bps (1); the rest of Bob's hold went back.
    expect(shown(feeAccount("USDT"))).toBe("3.5");
    expect(shown(margin("alice"))).toBe("500");
    expect(fromMinor(ledger.held(contract("bob")), 8)).toBe("0");
    expect(shown(contract("bob"))).toBe("499");
    expect(shown(contract("alice"))).toBe("497.5");

    // The price rises: Carol buys at 52,000.0 from Alice's close: Alice realises 0.1 × 2,000 = 200.
    expect(place({ orderId: "c1", memberId: "carol", side: "buy", price: price("52000"), qty: 100n, mark: price("52000") })).toBe("OK");
    expect(place({ orderId: "a2", memberId: "alice", side: "sell", action: "close", price: price("52000"), qty: 100n, mark: price("52000") })).toBe("OK");
    expect(market.position("alice")).toBeUndefined();
    // 497.5 + 500 margin back + 200 profit − 2.6 taker fee (5,200 × 5 bps).
    expect(shown(contract("alice"))).toBe("1194.9");
    expect(shown(margin("alice"))).toBe("0");
    // The clearing account paid the profit: Bob's short is 200 down at cost, so it holds −200 + (Carol's long).
    expect(market.checkInvariants()).toEqual([]);
    expect(ledger.checkInvariants()).toEqual([]);
    expect(shown(clearingAccount("USDT"))).toBe("-200");
  });

  it("refuses what the rules do not allow, and changes nothing", () => {
    const { ledger, market, place } = setUp(LINEAR, { alice: "100", bob: "1000" });
    const before = ledger.stateHash() + market.stateHash();
    const cases: Array<[Parameters<typeof place>[0], string]> = [
      [{ orderId: "x1", memberId: "alice", side: "buy", price: price("50000"), qty: 0n }, "CONTRACT_QTY"],
      [{ orderId: "x2", memberId: "alice", side: "buy", price: price("50000"), qty: 10n, leverage: 0 }, "CONTRACT_LEVERAGE"],
      [{ orderId: "x3", memberId: "alice", side: "buy", price: price("50000"), qty: 10n, leverage: 2.5 }, "CONTRACT_LEVERAGE"],
      // 2,000,000 USDT of value is in the 5x band.
      [{ orderId: "x4", memberId: "bob", side: "buy", price: price("50000"), qty: 40_000n, leverage: 10 }, "CONTRACT_LEVERAGE_BAND"],
      [{ orderId: "x5", memberId: "alice", side: "buy", price: price("60000"), qty: 10n }, "CONTRACT_PRICE_BAND"],
      // 100 contracts at 10x need 500 USDT of margin: Alice has 100.
      [{ orderId: "x6", memberId: "alice", side: "buy", price: price("50000"), qty: 100n }, "CONTRACT_INSUFFICIENT_MARGIN"],
      [{ orderId: "x7", memberId: "alice", side: "sell", action: "close", price: price("50000"), qty: 1n }, "CONTRACT_NOTHING_TO_CLOSE"],
      [{ orderId: "x8", memberId: "alice", side: "buy", type: "market", qty: 1n, tif: "GTC" }, "CONTRACT_BAD_ORDER"],
    ];
    for (const [cmd, code] of cases) expect([cmd.orderId, place(cmd)]).toEqual([cmd.orderId, code]);
    expect(ledger.stateHash() + market.stateHash()).toBe(before);
  });

  it("keeps a member's closes within their position, and one-way: no opening the other way while long", () => {
    const { market, place } = setUp(LINEAR, { alice: "1000", bob: "1000" });
    place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 10n });
    place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 10n });
    expect(place({ orderId: "a2", memberId: "alice", side: "sell", price: price("51000"), qty: 5n })).toBe("CONTRACT_CLOSE_FIRST");
    expect(place({ orderId: "a3", memberId: "alice", side: "sell", action: "close", price: price("51000"), qty: 6n })).toBe("OK");
    expect(place({ orderId: "a4", memberId: "alice", side: "sell", action: "close", price: price("51000"), qty: 5n })).toBe("CONTRACT_CLOSE_TOO_MUCH");
    expect(market.cancel("bob", "a3", [])).toBe("CONTRACT_UNKNOWN_ORDER");
    expect(market.cancel("alice", "a3", [])).toBe("OK");
    expect(place({ orderId: "a5", memberId: "alice", side: "sell", action: "close", price: price("51000"), qty: 10n })).toBe("OK");
  });

  it("holds what a fill at the limit would already lose at the mark, so no position starts below its initial margin", () => {
    const { ledger, market, place } = setUp(LINEAR, { alice: "1000", sam: "1000" });
    // A 100x buy at the band's edge, 52,500.0, with the mark at 50,000.0: 52.5 of margin, 250 lost at once, 2.625 of fee.
    expect(place({ orderId: "s1", memberId: "sam", side: "sell", price: price("52500"), qty: 100n, leverage: 100 })).toBe("OK");
    expect(place({ orderId: "a1", memberId: "alice", side: "buy", price: price("52500"), qty: 100n, leverage: 100 })).toBe("OK");
    const alice = market.position("alice")!;
    expect(alice.margin).toBe(usdt("302.5"));
    // At the mark it holds its initial margin exactly, and the next tick does not liquidate it.
    expect(alice.margin + (contractValue(LINEAR.spec, 100n, price("50000")) - alice.cost)).toBe(usdt("52.5"));
    expect(market.markTick(price("50000"), [])).toEqual([]);
    expect(ledger.checkInvariants()).toEqual([]);
  });

  it("closes in one step a member whose every unit is in their position (a close holds nothing; its fee comes from what it frees)", () => {
    const { ledger, market, place } = setUp(LINEAR, { alice: "502.5", bob: "1000", carol: "1000" });
    place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 100n });
    place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 100n });
    expect(ledger.available(contract("alice"))).toBe(0n);
    place({ orderId: "c1", memberId: "carol", side: "buy", price: price("50000"), qty: 100n });
    expect(market.closeAll("alice", "c1", price("50000"), [])).toBe("CONTRACT_DUPLICATE_ID");
    expect(market.closeAll("alice", "a2", price("50000"), [])).toBe("OK");
    expect(market.position("alice")).toBeUndefined();
    // 500 of margin back, no profit, 2.5 of taker fee.
    expect(fromMinor(ledger.posted(contract("alice")), 8)).toBe("497.5");
    expect(market.checkInvariants()).toEqual([]);
  });

  it("refuses a post-only order that would trade without a trace in the ledger", () => {
    const { ledger, market, place, events } = setUp(LINEAR, { alice: "1000", bob: "1000" });
    place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 10n });
    const before = ledger.stateHash() + market.stateHash();
    const told = events.length;
    expect(place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 10n, tif: "POST_ONLY" })).toBe("CONTRACT_POST_ONLY_WOULD_TRADE");
    expect(ledger.stateHash() + market.stateHash()).toBe(before);
    expect(events.length).toBe(told);
  });
});

describe("liquidation and funding", () => {
  /** Example L1: Alice long 100 contracts at 50,000.0 with 10x (liquidation 45,180.8, bankruptcy 45,000.0), Bob short. */
  const opened = () => {
    const setup = setUp(LINEAR, { alice: "1000", bob: "1000", carol: "10000", dave: "10000" });
    setup.place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 100n });
    setup.place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 100n });
    return setup;
  };

  it("watches a position at its liquidation price and leaves it be above it", () => {
    const { market } = opened();
    expect(market.position("alice")?.liquidation).toBe(price("45180.8"));
    expect(market.markTick(price("45180.9"), [])).toEqual([]);
    expect(market.position("alice")).toMatchObject({ qty: 100n });
  });

  it("closes a reached position in the book at its bankruptcy price or better; what its margin kept goes to the insurance fund", () => {
    const { ledger, market, place, shown } = opened();
    // Carol bids 45,100.0 for all of it: Alice's 100 contracts sell there, a loss of 490 of her 500 margin.
    expect(place({ orderId: "c1", memberId: "carol", side: "buy", price: price("45100"), qty: 100n, mark: price("45200") })).toBe("OK");
    // Alice also has a close resting above: the liquidation cancels it first.
    expect(place({ orderId: "a2", memberId: "alice", side: "sell", action: "close", price: price("47000"), qty: 100n, mark: price("45200") })).toBe("OK");
    const aliceBefore = ledger.posted(contract("alice"));
    const events: ContractEvent[] = [];
    expect(market.markTick(price("45150"), events)).toEqual(["alice"]);
    expect(market.position("alice")).toBeUndefined();
    expect(market.position("carol")).toMatchObject({ side: "long", qty: 100n, cost: usdt("4510") });
    expect(events.find((e) => e.type === "contract.liquidated")).toMatchObject({
      memberId: "alice",
      side: "long",
      qty: 100n,
      bankruptcy: price("45000"),
      filled: 100n,
      takenOver: 0n,
      toInsurance: usdt("10"),
    });
    // Her margin is gone, nothing more: her free balance is what it was (the close's fee hold came back).
    expect(ledger.posted(contract("alice"))).toBe(aliceBefore);
    expect(shown(insuranceAccount("USDT"))).toBe("10");
    expect(market.checkInvariants()).toEqual([]);
    expect(ledger.checkInvariants()).toEqual([]);
  });

  it("lets the insurance fund take over at the bankruptcy price what the book cannot take", () => {
    const { ledger, market } = opened();
    const events: ContractEvent[] = [];
    expect(market.markTick(price("45000"), events)).toEqual(["alice"]);
    expect(events.find((e) => e.type === "contract.liquidated")).toMatchObject({ filled: 0n, takenOver: 100n, toInsurance: 0n });
    expect(market.position("@insurance")).toMatchObject({ side: "long", qty: 100n, cost: usdt("4500"), margin: 0n });
    expect(market.checkInvariants()).toEqual([]);
    expect(ledger.checkInvariants()).toEqual([]);
  });

  it("deleverages the fund's taken-over position against the most profitable opposite one, at the mark", () => {
    const { ledger, market, place, shown } = opened();
    // Carol shorts too, at 48,000.0 (less profit at 45,000.0 than Bob's short from 50,000.0).
    place({ orderId: "c1", memberId: "carol", side: "sell", price: price("48000"), qty: 50n, mark: price("48000") });
    place({ orderId: "x1", memberId: "dave", side: "buy", price: price("48000"), qty: 50n, mark: price("48000") });
    market.markTick(price("45000"), []);
    expect(market.position("@insurance")).toMatchObject({ side: "long", qty: 100n });
    const bobBefore = ledger.posted(contract("bob"));
    const events: ContractEvent[] = [];
    expect(market.deleverageFund(price("45000"), events)).toEqual(["bob"]);
    expect(market.position("@insurance")).toBeUndefined();
    expect(market.position("bob")).toBeUndefined();
    expect(market.position("carol")).toMatchObject({ side: "short", qty: 50n });
    // Bob's short closed at the mark: his 500 margin back and 100 × 0.001 × 5,000 = 500 of profit.
    expect(fromMinor(ledger.posted(contract("bob")) - bobBefore, 8)).toBe("1000");
    expect(shown(insuranceAccount("USDT"))).toBe("0");
    expect(market.checkInvariants()).toEqual([]);
    expect(ledger.checkInvariants()).toEqual([]);
  });

  it("moves funding from longs' margins to shorts' at the mark: 0.52 USDT at 52,000.0 and 0.01 %", () => {
    const { market, shown } = opened();
    const events: ContractEvent[] = [];
    market.settleFunding(price("52000"), rate("0.01"), events);
    expect(market.position("alice")?.margin).toBe(usdt("499.48"));
    expect(market.position("bob")?.margin).toBe(usdt("500.52"));
    expect(shown(insuranceAccount("USDT"))).toBe("0");
    expect(events.filter((e) => e.type === "contract.funding").map((e) => (e as { amount: bigint }).amount)).toEqual([usdt("-0.52"), usdt("0.52")]);
    // Less margin: the liquidation price rises.
    expect(market.position("alice")!.liquidation! > price("45180.8")).toBe(true);
    expect(market.checkInvariants()).toEqual([]);
  });
});

describe("leverage, margin, one-key close and the snapshot", () => {
  const opened = () => {
    const setup = setUp(LINEAR, { alice: "1000", bob: "1000", carol: "10000" });
    setup.place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 100n });
    setup.place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 100n });
    return setup;
  };

  it("lowers leverage with margin from the free balance, refuses what the band or the balance cannot take", () => {
    const { market, shown } = opened();
    // 5,000 USDT at 8x needs 625 of margin: 125 more from the 497.5 free.
    expect(market.setLeverage("alice", 8, [])).toBe("OK");
    expect(market.position("alice")).toMatchObject({ leverage: 8, margin: usdt("625") });
    expect(shown(contract("alice"))).toBe("372.5");
    expect(market.setLeverage("alice", 2, [])).toBe("CONTRACT_INSUFFICIENT_MARGIN");
    expect(market.setLeverage("alice", 0, [])).toBe("CONTRACT_LEVERAGE");
    // Without a position the choice is kept for the next orders, within the first band.
    expect(market.leverageOf("carol")).toBe(20);
    expect(market.setLeverage("carol", 101, [])).toBe("CONTRACT_LEVERAGE_BAND");
    expect(market.setLeverage("carol", 5, [])).toBe("OK");
    expect(market.leverageOf("carol")).toBe(5);
    // Higher leverage leaves the margin; the liquidation price stays where the margin says.
    expect(market.setLeverage("alice", 20, [])).toBe("OK");
    expect(market.position("alice")).toMatchObject({ leverage: 20, margin: usdt("625") });
    expect(market.checkInvariants()).toEqual([]);
  });

  it("adds margin and takes it back, never below the initial margin; the liquidation price follows", () => {
    const { market, ledger } = opened();
    const before = market.position("alice")!.liquidation!;
    expect(market.changeMargin("alice", usdt("100"), price("50000"), [])).toBe("OK");
    expect(market.position("alice")!.liquidation! < before).toBe(true);
    expect(market.changeMargin("alice", -usdt("100"), price("50000"), [])).toBe("OK");
    expect(market.position("alice")!.liquidation).toBe(before);
    expect(market.changeMargin("alice", -usdt("0.00000001"), price("50000"), [])).toBe("CONTRACT_MARGIN_BELOW_INITIAL");
    expect(market.changeMargin("alice", usdt("100000"), price("50000"), [])).toBe("CONTRACT_INSUFFICIENT_MARGIN");
    expect(market.checkInvariants()).toEqual([]);
    expect(ledger.checkInvariants()).toEqual([]);
  });

  it("closes a position in one step against the book, its resting orders cancelled", () => {
    const { market, place } = opened();
    place({ orderId: "c1", memberId: "carol", side: "buy", price: price("49990"), qty: 100n });
    place({ orderId: "a2", memberId: "alice", side: "sell", action: "close", price: price("51000"), qty: 50n });
    expect(market.closeAll("alice", "a3", price("50000"), [])).toBe("OK");
    expect(market.position("alice")).toBeUndefined();
    expect(market.closeAll("alice", "a4", price("50000"), [])).toBe("CONTRACT_NOTHING_TO_CLOSE");
    expect(market.checkInvariants()).toEqual([]);
  });

  it("restores from its snapshot and the ledger's to the same state, and goes on the same way", () => {
    const { ledger, market, place } = opened();
    place({ orderId: "c1", memberId: "carol", side: "buy", price: price("49000"), qty: 30n });
    place({ orderId: "c2", memberId: "carol", side: "buy", price: price("49000"), qty: 20n });
    place({ orderId: "a2", memberId: "alice", side: "sell", action: "close", price: price("51000"), qty: 40n });
    const { restored, copy } = restoredCopy(LINEAR, market, ledger);
    expect(copy.stateHash()).toBe(ledger.stateHash());
    expect(restored.stateHash()).toBe(market.stateHash());
    // The same sell meets the same bids in the same order on both.
    const sell = {
      orderId: "b2",
      memberId: "bob",
      side: "sell" as const,
      action: "open" as const,
      type: "limit" as const,
      price: price("49000"),
      qty: 40n,
      tif: "GTC" as const,
      leverage: 10,
      mark: price("49500"),
    };
    expect(market.place(sell, [])).toBe("OK");
    expect(restored.place(sell, [])).toBe("OK");
    expect(restored.stateHash()).toBe(market.stateHash());
    expect(copy.stateHash()).toBe(ledger.stateHash());
    expect(restored.checkInvariants()).toEqual([]);
  });
});

describe("cross margin (decision 049)", () => {
  it("backs a position with the member's free balance: liquidated later than an isolated twin, and then with that balance", () => {
    const { ledger, market, place, events } = setUp(LINEAR, { alice: "1000", dave: "1000", bob: "20000", carol: "100000" });
    expect(market.setMarginMode("alice", "cross", events)).toBe("OK");
    expect(market.marginModeOf("alice")).toBe("cross");
    expect(market.marginModeOf("dave")).toBe("isolated");
    // Alice (cross) and Dave (isolated) each go long 100 at 50,000.0 at 10x against Bob.
    place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 200n, leverage: 1 });
    place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 100n });
    place({ orderId: "d1", memberId: "dave", side: "buy", price: price("50000"), qty: 100n });
    const cross = market.position("alice")!;
    const isolated = market.position("dave")!;
    expect(cross.margin).toBe(isolated.margin);
    expect(cross.liquidation! < isolated.liquidation!).toBe(true);
    // Her free balance falls (a transfer out, as the core re-watches after it): the price rises toward the isolated one.
    const before = cross.liquidation!;
    ledger.moveBetween("out-1", ledger.account(contract("alice")), ledger.account({ owner: "alice", kind: "funding", asset: "USDT" }), usdt("200"));
    market.rewatchCross("alice");
    expect(cross.liquidation! > before).toBe(true);
    expect(cross.liquidation! < isolated.liquidation!).toBe(true);
    // Its margin is the free balance: none to add or take; the mode stays while she holds the position or an order.
    expect(market.changeMargin("alice", usdt("10"), price("50000"), events)).toBe("CONTRACT_MARGIN_MODE");
    expect(market.setMarginMode("alice", "isolated", events)).toBe("CONTRACT_POSITION_OPEN");
    place({ orderId: "c0", memberId: "carol", side: "buy", price: price("40000"), qty: 1n, leverage: 1 });
    expect(market.setMarginMode("carol", "cross", events)).toBe("CONTRACT_ORDERS_OPEN");
    // Carol bids deep, so liquidations close in the book. Between the two prices: Dave is liquidated, Alice is not.
    place({ orderId: "c1", memberId: "carol", side: "buy", price: price("30000"), qty: 300n, leverage: 1, mark: price("45000") });
    const between = (isolated.liquidation! + cross.liquidation!) / 2n;
    expect(market.markTick(between, events)).toEqual(["dave"]);
    expect(market.position("alice")).toBeDefined();
    // Past hers: she is liquidated, and what backed it (her free balance too) is gone with it.
    expect(market.markTick(cross.liquidation! - price("10"), events)).toEqual(["alice"]);
    expect(market.position("alice")).toBeUndefined();
    expect(ledger.posted(contract("alice")) < usdt("50")).toBe(true);
    expect(market.checkInvariants()).toEqual([]);
    expect(ledger.checkInvariants()).toEqual([]);
  });

  it("pays a cross position's funding from the free balance that backs it, leaving its margin", () => {
    const { ledger, market, place, events } = setUp(LINEAR, { alice: "1000", bob: "20000" });
    market.setMarginMode("alice", "cross", events);
    place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 100n, leverage: 1 });
    place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 100n });
    const margin = market.position("alice")!.margin;
    const free = ledger.posted(contract("alice"));
    // 0.01 % of 5,000 USDT: the long pays 0.5 USDT, from her free balance.
    market.settleFunding(price("50000"), rate("0.01"), events);
    expect(market.position("alice")!.margin).toBe(margin);
    expect(ledger.posted(contract("alice"))).toBe(free - usdt("0.5"));
    expect(events.find((e) => e.type === "contract.funding" && e.memberId === "alice")).toMatchObject({ amount: -usdt("0.5") });
    expect(market.checkInvariants()).toEqual([]);
  });
});

describe("a deficit (decision 048)", () => {
  it("is what neither the member nor the insurance fund could pay, and the fund pays it as soon as it has the money", () => {
    const { ledger, market, place, events } = setUp(LINEAR, { alice: "1000", bob: "1000", carol: "10000" });
    place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 100n });
    place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 100n });
    // The price falls 20 % before any mark tick liquidates her: Alice's close at 40,000.0 loses
    // 1,000 USDT, more than her 500 of margin and 497.5 free, and the fund is empty.
    place({ orderId: "c1", memberId: "carol", side: "buy", price: price("40000"), qty: 100n, mark: price("40000") });
    place({ orderId: "a2", memberId: "alice", side: "sell", action: "close", price: price("40000"), qty: 100n, mark: price("40000") });
    const deficit = market.uncovered;
    expect(deficit > 0n).toBe(true);
    expect(events.filter((e) => e.type === "contract.deficit")).toHaveLength(1);
    expect(market.checkInvariants()).toEqual([]);
    // Nothing to pay it with yet; then the fund receives half of it, then the rest and more.
    expect(market.coverDeficit(events)).toBe(0n);
    ledger.deposit("fund-1", insuranceAccount("USDT"), deficit / 2n);
    expect(market.coverDeficit(events)).toBe(deficit / 2n);
    expect(market.uncovered).toBe(deficit - deficit / 2n);
    expect(market.checkInvariants()).toEqual([]);
    ledger.deposit("fund-2", insuranceAccount("USDT"), usdt("100"));
    market.coverDeficit(events);
    expect(market.uncovered).toBe(0n);
    expect(ledger.posted(insuranceAccount("USDT"))).toBe(usdt("100") - (deficit - deficit / 2n));
    expect(events.filter((e) => e.type === "contract.deficit_covered").map((e) => e.type === "contract.deficit_covered" && e.amount)).toEqual([
      deficit / 2n,
      deficit - deficit / 2n,
    ]);
    expect(market.checkInvariants()).toEqual([]);
    expect(ledger.checkInvariants()).toEqual([]);
  });
});

describe("stop orders and a position's take profit and stop loss (decision 048)", () => {
  // Alice long 100 at 50,000.0 (10x), Bob short 100; Carol has money and no position.
  const opened = () => {
    const setup = setUp(LINEAR, { alice: "1000", bob: "1000", carol: "10000" });
    setup.place({ orderId: "b1", memberId: "bob", side: "sell", price: price("50000"), qty: 100n });
    setup.place({ orderId: "a1", memberId: "alice", side: "buy", price: price("50000"), qty: 100n });
    setup.events.length = 0;
    return setup;
  };
  const stop = (over: Partial<ContractStopPlace> & Pick<ContractStopPlace, "stopId" | "memberId" | "side" | "triggerPrice">): ContractStopPlace => ({
    action: "open",
    type: "market",
    qty: 10n,
    tif: "IOC",
    triggerBy: "mark",
    mark: price("50000"),
    ...over,
  });

  it("refuses a trigger at the price it watches, off the tick, a close of nothing, an eleventh stop, and changes nothing", () => {
    const { market, events, ledger } = opened();
    const before = market.stateHash() + ledger.stateHash();
    expect(market.placeStop(stop({ stopId: "s1", memberId: "carol", side: "buy", triggerPrice: price("50000") }), events)).toBe("CONTRACT_TRIGGER_PRICE");
    expect(market.placeStop(stop({ stopId: "s1", memberId: "carol", side: "buy", triggerPrice: 0n }), events)).toBe("CONTRACT_TRIGGER_PRICE");
    expect(market.placeStop(stop({ stopId: "s1", memberId: "carol", side: "sell", action: "close", triggerPrice: price("49000") }), events)).toBe(
      "CONTRACT_NOTHING_TO_CLOSE",
    );
    expect(market.placeStop(stop({ stopId: "s1", memberId: "alice", side: "sell", action: "close", qty: 101n, triggerPrice: price("49000") }), events)).toBe(
      "CONTRACT_CLOSE_TOO_MUCH",
    );
    expect(market.placeStop(stop({ stopId: "s1", memberId: "carol", side: "buy", tif: "GTC", triggerPrice: price("51000") }), events)).toBe(
      "CONTRACT_BAD_ORDER",
    );
    expect(events).toEqual([]);
    expect(market.stateHash() + ledger.stateHash()).toBe(before);
    for (let i = 0; i < 10; i++)
      expect(market.placeStop(stop({ stopId: `c${i}`, memberId: "carol", side: "buy", triggerPrice: price("51000") }), events)).toBe("OK");
    expect(market.placeStop(stop({ stopId: "c10", memberId: "carol", side: "buy", triggerPrice: price("51000") }), events)).toBe("CONTRACT_TOO_MANY_STOPS");
    expect(market.placeStop(stop({ stopId: "c0", memberId: "bob", side: "buy", triggerPrice: price("51000") }), events)).toBe("CONTRACT_DUPLICATE_ID");
    // Waiting stops hold nothing.
    expect(ledger.held(contract("carol"))).toBe(0n);
    expect(market.checkInvariants()).toEqual([]);
  });

  it("closes a long when the mark falls to its stop, under the stop's id, and tells each step", () => {
    const { market, events, place } = opened();
    place({ orderId: "c1", memberId: "carol", side: "buy", price: price("49000"), qty: 100n, mark: price("49500") });
    expect(market.placeStop(stop({ stopId: "s1", memberId: "alice", side: "sell", action: "close", qty: 40n, triggerPrice: price("49200") }), events)).toBe(
      "OK",
    );
    expect(events.at(-1)).toMatchObject({ type: "contract.stop_placed", stopId: "s1", lossPrice: price("49200"), profitPrice: null, qty: 40n });
    events.length = 0;
    market.markTick(price("49300"), events);
    expect(market.waitingStop("s1")).toBeDefined();
    market.markTick(price("49200"), events);
    expect(market.waitingStop("s1")).toBeUndefined();
    const types = events.map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(["contract.stop_ended", "contract.placed", "contract.trade"]);
    expect(events[0]).toMatchObject({ status: "triggered", firedPrice: price("49200"), stopId: "s1" });
    expect(events[1]).toMatchObject({ orderId: "s1", action: "close", quantity: 40n, orderType: "market" });
    expect(market.position("alice")!.qty).toBe(60n);
    expect(market.last).toBe(price("49000"));
    expect(market.checkInvariants()).toEqual([]);
  });

  it("opens on a breakout of the last price, and a stop whose order is refused when it fires fails and holds nothing", () => {
    const { market, events, place, ledger } = opened();
    // The last trade was at 50,000.0: a buy stop above it fires when a trade prints at 50,100.0.
    expect(market.placeStop(stop({ stopId: "s1", memberId: "carol", side: "buy", triggerBy: "last", triggerPrice: price("50100") }), events)).toBe("OK");
    // Bob cannot cover 1,500 contracts' margin: his stop fails when it fires.
    expect(market.placeStop(stop({ stopId: "s2", memberId: "bob", side: "sell", qty: 1_500n, triggerBy: "last", triggerPrice: price("50100") }), events)).toBe(
      "OK",
    );
    place({ orderId: "ask", memberId: "alice", side: "sell", action: "close", price: price("50100"), qty: 50n });
    place({ orderId: "ask2", memberId: "alice", side: "sell", action: "close", price: price("50150"), qty: 50n });
    events.length = 0;
    place({ orderId: "x", memberId: "carol", side: "buy", price: price("50100"), qty: 1n });
    const ended = events.filter((e) => e.type === "contract.stop_ended");
    expect(ended).toMatchObject([
      { stopId: "s1", status: "triggered" },
      { stopId: "s2", status: "failed", reason: "CONTRACT_INSUFFICIENT_MARGIN" },
    ]);
    // Carol's market buy took the rest at 50,100.0 and then at 50,150.0 within the band.
    expect(market.position("carol")!.qty).toBe(11n);
    expect(ledger.held(contract("bob"))).toBe(0n);
    expect(market.checkInvariants()).toEqual([]);
  });

  it("sets a long's take profit and stop loss, refuses them on the wrong side, replaces them, and drops them with the position", () => {
    const { market, events, place } = opened();
    expect(market.setPositionStops("carol", "t0", "mark", price("51000"), null, price("50000"), events)).toBe("CONTRACT_NOTHING_TO_CLOSE");
    expect(market.setPositionStops("alice", "t0", "mark", price("49000"), null, price("50000"), events)).toBe("CONTRACT_TRIGGER_PRICE");
    expect(market.setPositionStops("alice", "t0", "mark", null, price("50000"), price("50000"), events)).toBe("CONTRACT_TRIGGER_PRICE");
    expect(market.setPositionStops("alice", "t0", "mark", null, null, price("50000"), events)).toBe("CONTRACT_BAD_ORDER");
    expect(events).toEqual([]);
    expect(market.setPositionStops("alice", "t1", "mark", price("52000"), price("48000"), price("50000"), events)).toBe("OK");
    expect(market.setPositionStops("alice", "t2", "last", price("53000"), null, price("50000"), events)).toBe("OK");
    expect(events.map((e) => e.type === "contract.stop_ended" && [e.stopId, e.reason]).filter(Boolean)).toEqual([["t1", "replaced"]]);
    // Not counted among her ten stop orders.
    expect([...market.stopsOf("alice")].map((s) => s.id)).toEqual(["t2"]);
    // Closed by hand: its take profit goes with it.
    place({ orderId: "c1", memberId: "carol", side: "buy", price: price("50000"), qty: 100n });
    events.length = 0;
    place({ orderId: "a2", memberId: "alice", side: "sell", action: "close", price: price("50000"), qty: 100n });
    expect(market.position("alice")).toBeUndefined();
    expect(events.find((e) => e.type === "contract.stop_ended")).toMatchObject({ stopId: "t2", status: "cancelled", reason: "position_closed" });
    expect(market.checkInvariants()).toEqual([]);
  });

  it("takes profit on the whole position at the market, its resting closes cancelled first", () => {
    const { market, events, place } = opened();
    place({ orderId: "a2", memberId: "alice", side: "sell", action: "close", price: price("52500"), qty: 30n });
    expect(market.setPositionStops("alice", "t1", "mark", price("51000"), price("48000"), price("50000"), events)).toBe("OK");
    place({ orderId: "c1", memberId: "carol", side: "buy", price: price("51000"), qty: 200n, mark: price("50900") });
    events.length = 0;
    market.markTick(price("51000"), events);
    expect(events.filter((e) => e.type === "contract.order_ended").map((e) => e.type === "contract.order_ended" && [e.orderId, e.reason])).toEqual([
      ["a2", "tp_sl"],
      ["t1", "filled"],
    ]);
    expect(market.position("alice")).toBeUndefined();
    expect(market.waitingStop("t1")).toBeUndefined();
    expect(market.checkInvariants()).toEqual([]);
  });

  it("cancels a waiting stop for its member only; a one-key close takes the member's stops away", () => {
    const { market, events } = opened();
    market.placeStop(stop({ stopId: "s1", memberId: "carol", side: "buy", triggerPrice: price("51000") }), events);
    expect(market.cancel("bob", "s1", events)).toBe("CONTRACT_UNKNOWN_ORDER");
    expect(market.cancel("carol", "s1", events)).toBe("OK");
    expect(events.at(-1)).toMatchObject({ type: "contract.stop_ended", status: "cancelled", reason: "user" });
    market.placeStop(stop({ stopId: "s2", memberId: "bob", side: "sell", triggerPrice: price("51000") }), events);
    expect(market.closeAll("bob", "k1", price("50000"), events)).toBe("OK");
    expect(events.find((e) => e.type === "contract.stop_ended" && e.stopId === "s2")).toMatchObject({ reason: "close_all" });
    expect(market.checkInvariants()).toEqual([]);
  });

  it("keeps its waiting stops and last price through a snapshot: the same hash, and the same stop fires the same way", () => {
    const { market, events, ledger } = opened();
    market.placeStop(stop({ stopId: "s1", memberId: "carol", side: "buy", triggerBy: "last", triggerPrice: price("50100") }), events);
    market.setPositionStops("alice", "t1", "mark", price("52000"), price("48000"), price("50000"), events);
    const { restored } = restoredCopy(LINEAR, market, ledger);
    expect(restored.stateHash()).toBe(market.stateHash());
    expect(restored.last).toBe(price("50000"));
    expect([...restored.stopsOf("alice")].map((s) => [s.id, s.profitPrice, s.lossPrice])).toEqual([["t1", price("52000"), price("48000")]]);
    expect(restored.checkInvariants()).toEqual([]);
  });
});

/** A random stream of orders, closes and cancels from a few members at prices around a wandering mark. */
const stream = () =>
  fc.tuple(
    // The mark's drift per step (ticks): some streams trend far enough to liquidate.
    fc.integer({ min: -600, max: 600 }),
    fc.array(
      fc.record({
        member: fc.integer({ min: 0, max: 3 }),
        side: fc.constantFrom("buy" as const, "sell" as const),
        action: fc.constantFrom("open" as const, "open" as const, "close" as const),
        type: fc.constantFrom("limit" as const, "limit" as const, "market" as const),
        offsetTicks: fc.integer({ min: -40, max: 40 }),
        qty: fc.integer({ min: 1, max: 300 }),
        leverage: fc.constantFrom(1, 10, 20, 50),
        tif: fc.constantFrom("GTC" as const, "IOC" as const, "POST_ONLY" as const, "FOK" as const),
        markMove: fc.integer({ min: -300, max: 300 }),
        funding: fc.integer({ min: -50_000, max: 50_000 }),
        cancel: fc.boolean(),
        extra: fc.constantFrom("none", "none", "none", "add", "take", "close-all", "leverage", "stop", "stop", "tpsl", "cross", "isolated"),
        triggerBy: fc.constantFrom("mark" as const, "last" as const),
      }),
      { minLength: 20, maxLength: 120 },
    ),
  );

describe.each([
  ["linear", LINEAR, "50000"],
  ["inverse", INVERSE, "50000"],
])("a %s market under random streams", (_kind, config, start) => {
  it("keeps every asset summing to zero, margins equal to positions', and the clearing account equal to the positions' costs", () => {
    // The streams must trade, close and realise, or the checks below check nothing.
    const seen = { trades: 0, closes: 0, deficits: 0, liquidations: 0, triggered: 0, stopsPlaced: 0 };
    fc.assert(
      fc.property(stream(), ([drift, steps]) => {
        const ledger = new Ledger();
        let n = 0;
        const market = new ContractMarket(config, ledger, () => `t${++n}`);
        const asset = config.settleAsset;
        const members = ["m0", "m1", "m2", "m3"];
        for (const m of members) ledger.deposit(`dep-${m}`, contract(m, asset), toMinor(config.spec.kind === "linear" ? "20000" : "2", 8));
        // The insurance fund starts with something, as an operator would fund it.
        ledger.deposit("dep-insurance", insuranceAccount(asset), toMinor(config.spec.kind === "linear" ? "500" : "0.01", 8));
        let mark = toMinor(start, 1);
        const open: string[] = [];
        steps.forEach((step, i) => {
          // Half a dollar a tick on both markets (the linear one's tick is a tenth).
          mark += BigInt(step.markMove + drift) * 5n;
          const memberId = members[step.member]!;
          if (step.cancel && open.length > 0) {
            const id = open[i % open.length]!;
            market.cancel(id.split(":")[0]!, id, []);
          }
          const held = market.position(memberId);
          const close = step.action === "close" && held !== undefined;
          const side = close ? (held.side === "long" ? "sell" : "buy") : step.side;
          const qty = close ? BigInt(Math.min(step.qty, Number(held.qty))) : BigInt(step.qty);
          const limit = (mark / config.tickSize + BigInt(step.offsetTicks)) * config.tickSize;
          const orderId = `${memberId}:${i}`;
          const told: ContractEvent[] = [];
          const code = market.place(
            {
              orderId,
              memberId,
              side,
              action: close ? "close" : "open",
              type: step.type,
              ...(step.type === "limit" ? { price: limit } : {}),
              qty,
              tif: step.type === "market" ? "IOC" : step.tif,
              leverage: held?.leverage ?? step.leverage,
              mark,
            },
            told,
          );
          if (code === "OK") open.push(orderId);
          const unit = config.spec.kind === "linear" ? 100_000_000n : 100_000n;
          if (step.extra === "add") market.changeMargin(memberId, unit * BigInt(step.qty), mark, told);
          if (step.extra === "take") market.changeMargin(memberId, -unit * BigInt(step.qty), mark, told);
          if (step.extra === "close-all") market.closeAll(memberId, `${orderId}:all`, mark, told);
          if (step.extra === "leverage") market.setLeverage(memberId, step.leverage, told);
          if (step.extra === "cross" || step.extra === "isolated") market.setMarginMode(memberId, step.extra, told);
          // Stop orders and take profit / stop loss a few ticks either side of the price they watch.
          const trigger = (mark / config.tickSize + BigInt(step.offsetTicks)) * config.tickSize;
          if (step.extra === "stop")
            market.placeStop(
              {
                stopId: `${orderId}:stop`,
                memberId,
                side,
                action: close ? "close" : "open",
                type: step.type,
                ...(step.type === "limit" ? { price: limit } : {}),
                qty,
                tif: step.type === "market" ? "IOC" : "GTC",
                triggerBy: step.triggerBy,
                triggerPrice: trigger,
                mark,
              },
              told,
            );
          if (step.extra === "tpsl" && held) {
            const away = BigInt(Math.abs(step.offsetTicks) + 1) * config.tickSize;
            const [tp, sl] = held.side === "long" ? [mark + away, mark - away] : [mark - away, mark + away];
            market.setPositionStops(memberId, `${orderId}:tpsl`, step.triggerBy, tp, sl > 0n ? sl : null, mark, told);
          }
          // Funding, then the mark's pass (as the engine runs them: a funding time is a mark tick too).
          if (i % 7 === 6) market.settleFunding(mark, BigInt(step.funding), told);
          // The core re-watches cross positions whose member's balance moved (exchange-core.ts): here, all.
          for (const m of members) market.rewatchCross(m);
          market.markTick(mark, told);
          if (i % 5 === 4) market.deleverageFund(mark, told);
          // After a pass no watched position is at or below its maintenance margin at the mark (a
          // cross one backed by its member's free balance too).
          for (const m of members) market.rewatchCross(m);
          for (const p of market.positions()) {
            if (p.memberId === "@insurance") continue;
            const value = contractValue(config.spec, p.qty, mark);
            const free = ledger.posted(contract(p.memberId, asset)) - ledger.held(contract(p.memberId, asset));
            const backing = p.margin + (market.marginModeOf(p.memberId) === "cross" && free > 0n ? free : 0n);
            if (p.liquidation !== null) expect(backing + unrealisedPnl(config.spec, p, mark) > maintenanceMargin(config.tiers, value)).toBe(true);
          }
          for (const event of told) {
            if (event.type === "contract.trade") seen.trades++;
            if (event.type === "contract.position" && event.realised !== 0n) seen.closes++;
            if (event.type === "contract.deficit") seen.deficits++;
            if (event.type === "contract.liquidated") seen.liquidations++;
            if (event.type === "contract.stop_placed") seen.stopsPlaced++;
            if (event.type === "contract.stop_ended" && event.status === "triggered") seen.triggered++;
          }
          expect(ledger.checkInvariants()).toEqual([]);
          expect(market.checkInvariants()).toEqual([]);
        });
        // The snapshot and the ledger's balances and holds give the same state back.
        const { restored, copy } = restoredCopy(config, market, ledger);
        expect(restored.stateHash()).toBe(market.stateHash());
        expect(copy.stateHash()).toBe(ledger.stateHash());
        // Every member's money is in their accounts, the fees, the insurance fund and clearing: nothing else.
        const total = [...members.flatMap((m) => [contract(m, asset), margin(m, asset)]), feeAccount(asset), insuranceAccount(asset), clearingAccount(asset)]
          .map((ref) => ledger.posted(ref))
          .reduce((a, b) => a + b, 0n);
        expect(total).toBe(toMinor(config.spec.kind === "linear" ? "80500" : "8.01", 8));
        expect(RATE_ONE).toBe(100_000_000n);
      }),
      { numRuns: 60 },
    );
    expect(seen.trades).toBeGreaterThan(100);
    expect(seen.closes).toBeGreaterThan(20);
    expect(seen.liquidations).toBeGreaterThan(5);
    expect(seen.stopsPlaced).toBeGreaterThan(50);
    expect(seen.triggered).toBeGreaterThan(20);
  });
});
