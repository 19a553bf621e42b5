import { describe, expect, it } from "vitest";
import { fromMinor, toMinor } from "../../../protocol/money";
import { accountId } from "../ledger/ledger";
import type { MarginEvent } from "./margin";
import { HOUR_MS, lendingAccount } from "./margin";
import { marginCore, tradeAt } from "./margin-test-kit";

const T0 = Date.UTC(2026, 10, 29, 10, 0, 0);
const usdt = (v: string) => toMinor(v, 8);
const owed = (core: ReturnType<typeof marginCore>, owner: string, scope: string, asset: string) => {
  const loan = core.margin.loan(owner, scope, asset);
  return loan ? { principal: fromMinor(loan.principal, 8), interest: fromMinor(loan.interest, 8) } : null;
};

/** A member with `funds` USDT in their cross margin account and BTC at 50 000. */
function funded(funds = "1000") {
  const core = marginCore();
  tradeAt(core, "BTC/USDT", "50000");
  core.apply({ type: "ledger.deposit", id: "d", memberId: "7", asset: "USDT", kind: "funding", amount: funds });
  expect(core.apply({ type: "margin.transfer", memberId: "7", scope: "all", asset: "USDT", amount: funds, direction: "in" }).code).toBe("OK");
  return core;
}

describe("margin interest, hour by hour", () => {
  it.each([
    // [what, borrowed at, ticks, hours charged in all]
    ["a borrow pays its first hour at once", T0 + 5 * 60_000, [], 1],
    ["a borrow a second before the hour pays that hour and the next when it begins", T0 + HOUR_MS - 1_000, [T0 + HOUR_MS], 2],
    ["ticks within an hour already paid charge nothing", T0, [T0 + 60_000, T0 + 30 * 60_000, T0 + HOUR_MS - 1], 1],
    ["an engine down for three hours charges the three at its first tick", T0 + 10_000, [T0 + 3 * HOUR_MS + 600_000], 4],
    ["each hour begun is charged once however many ticks fall in it", T0, [T0 + HOUR_MS, T0 + HOUR_MS + 1, T0 + 2 * HOUR_MS, T0 + 2 * HOUR_MS + 5], 3],
  ] as const)("%s", (_what, borrowedAt, ticks, hours) => {
    const core = funded();
    // 1 000 USDT at 0.0005 % an hour: 0.005 USDT an hour.
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "USDT", amount: "1000", at: borrowedAt }).code).toBe("OK");
    for (const at of ticks) expect(core.apply({ type: "margin.tick", at }).code).toBe("OK");
    expect(owed(core, "7", "all", "USDT")).toEqual({ principal: "1000", interest: (0.005 * hours).toFixed(3).replace(/0+$/, "") });
    // Owed is a ledger balance: minus principal and interest; the pool earned the interest.
    expect(core.ledger.balanceOf(accountId({ owner: "7", kind: "loan", asset: "USDT" })).posted).toBe(-usdt("1000") - usdt(String(0.005 * hours)));
    expect(core.ledger.posted(lendingAccount("USDT"))).toBe(usdt((0.005 * hours).toFixed(3)));
    expect(core.ledger.checkInvariants()).toEqual([]);
    expect(core.margin.checkInvariants()).toEqual([]);
  });

  it("charges each hour at the rate in force when it begins, rounded up to the coin's unit", () => {
    const core = funded();
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "USDT", amount: "1000", at: T0 }).code).toBe("OK");
    expect(core.apply({ type: "margin.pool", asset: "USDT", hourlyRate: "0.00001" }).code).toBe("OK");
    core.apply({ type: "margin.tick", at: T0 + HOUR_MS });
    // 0.005 for the first hour, 0.01 for the second.
    expect(owed(core, "7", "all", "USDT")?.interest).toBe("0.015");
    // A rate whose interest falls between two units rounds up: 0.000000001 % of 1 000 USDT is 0.00000001.
    expect(core.apply({ type: "margin.pool", asset: "USDT", hourlyRate: "0.00000000001" }).code).toBe("OK");
    core.apply({ type: "margin.tick", at: T0 + 2 * HOUR_MS });
    expect(owed(core, "7", "all", "USDT")?.interest).toBe("0.01500001");
  });

  it("takes a repayment as interest first, then principal, and closes a loan paid in full", () => {
    const core = funded();
    core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "USDT", amount: "1000", at: T0 });
    core.apply({ type: "margin.tick", at: T0 + HOUR_MS });
    expect(owed(core, "7", "all", "USDT")).toEqual({ principal: "1000", interest: "0.01" });
    const partial = core.apply({ type: "margin.repay", memberId: "7", scope: "all", asset: "USDT", amount: "0.004" });
    expect(partial.events?.find((e): e is Extract<MarginEvent, { type: "margin.repaid" }> => e.type === "margin.repaid")).toMatchObject({
      principal: 0n,
      interest: usdt("0.004"),
    });
    core.apply({ type: "margin.repay", memberId: "7", scope: "all", asset: "USDT", amount: "100.006" });
    expect(owed(core, "7", "all", "USDT")).toEqual({ principal: "900", interest: "0" });
    const before = core.stateHash();
    expect(core.apply({ type: "margin.repay", memberId: "7", scope: "all", asset: "USDT", amount: "900.00000001" }).code).toBe("MARGIN_REPAY_EXCEEDS");
    expect(core.stateHash()).toBe(before);
    expect(core.apply({ type: "margin.repay", memberId: "7", scope: "all", asset: "USDT", amount: "900" }).code).toBe("OK");
    expect(owed(core, "7", "all", "USDT")).toBeNull();
    expect(core.ledger.posted({ owner: "7", kind: "loan", asset: "USDT" })).toBe(0n);
    expect(core.margin.lentOf("USDT")).toBe(0n);
    expect(core.margin.checkInvariants()).toEqual([]);
  });
});

describe("margin level and what it allows", () => {
  it("lends on cross margin up to equity × (3 − 1), valued at the coin's last price", () => {
    const core = funded("1000");
    // 1 000 USDT of equity: 2 000 USDT of debt at most, 0.04 BTC at 50 000.
    expect(core.margin.canBorrow("7", "all", "BTC")).toBe(usdt("0.04"));
    const before = core.stateHash();
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "BTC", amount: "0.04000001", at: T0 }).code).toBe("MARGIN_OVER_LIMIT");
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "BTC", amount: "0.00001", at: T0 }).code).toBe("MARGIN_BELOW_MINIMUM");
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "DOGE", amount: "1", at: T0 }).code).toBe("MARGIN_UNKNOWN_ASSET");
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "SOL/USDT", asset: "USDT", amount: "1", at: T0 }).code).toBe("MARGIN_UNKNOWN_PAIR");
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "BTC", amount: "0", at: T0 }).code).toBe("MARGIN_BAD_AMOUNT");
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "BTC", amount: "0.000000001", at: T0 }).code).toBe("MARGIN_BAD_AMOUNT");
    expect(core.stateHash()).toBe(before);
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "BTC", amount: "0.04", at: T0 }).code).toBe("OK");
    // Assets 1 000 + 2 000 over debts 2 000 and the first hour's interest: a level just under 1.50.
    const level = core.margin.levelOf("7", "all");
    expect(level.assets).toBe(usdt("3000"));
    expect(level.debts).toBe(usdt("2000.01"));
    expect(level.level).toBe(149n);
    expect(core.margin.canBorrow("7", "all", "USDT")).toBe(0n);
  });

  it("refuses a coin without a price, and a pool lent to its limit", () => {
    const core = funded("100000");
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "ETH", amount: "1", at: T0 }).code).toBe("MARGIN_NO_PRICE");
    expect(core.apply({ type: "margin.pool", asset: "BTC", limit: "0.5" }).code).toBe("OK");
    expect(core.margin.canBorrow("7", "all", "BTC")).toBe(usdt("0.5"));
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "BTC", amount: "0.6", at: T0 }).code).toBe("MARGIN_POOL_EXHAUSTED");
    expect(core.apply({ type: "margin.pool", asset: "BTC", hourlyRate: "0.5" })).toMatchObject({ code: "MARGIN_BAD_RULES", problem: expect.any(String) });
    expect(core.apply({ type: "margin.pool", asset: "BTC", minBorrow: "0" })).toMatchObject({ code: "MARGIN_BAD_RULES" });
  });

  it("lets funds out only while the level stays at 2 or above", () => {
    const core = funded("1000");
    core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "USDT", amount: "500", at: T0 });
    // Assets 1 500, debts 500.005: at most 499.99 can leave (1 000.01 / 500.005 = 2).
    expect(core.apply({ type: "margin.transfer", memberId: "7", scope: "all", asset: "USDT", amount: "500", direction: "out" }).code).toBe(
      "MARGIN_LEVEL_UNSAFE",
    );
    expect(core.apply({ type: "margin.transfer", memberId: "7", scope: "all", asset: "USDT", amount: "499.99", direction: "out" }).code).toBe("OK");
    expect(core.apply({ type: "margin.transfer", memberId: "7", scope: "all", asset: "ETH", amount: "1", direction: "in" }).code).toBe("MARGIN_INSUFFICIENT");
    expect(core.apply({ type: "margin.transfer", memberId: "7", scope: "BTC/USDT", asset: "ETH", amount: "1", direction: "in" }).code).toBe(
      "MARGIN_UNKNOWN_ASSET",
    );
  });

  it("warns once below 1.30, answers the accounts at 1.10 for liquidation, and clears the warning when the level recovers", () => {
    const core = funded("1000");
    core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "BTC", amount: "0.04", at: T0 });
    // The borrowed BTC is held, and owed: the level moves with BTC's price (the debt's value rises faster than the assets').
    const levelEvents = (at: number) => (core.apply({ type: "margin.tick", at }).events ?? []).filter((e) => e.type === "margin.level");
    expect(levelEvents(T0 + 1_000)).toEqual([]);
    // Assets 1 000 USDT + 0.04 BTC; debt 0.04 BTC (+ interest). BTC at 50 000 → level 1.49; a rise lowers it.
    tradeAt(core, "BTC/USDT", "60000");
    // 1 000 + 2 400 over 2 400.012: 1.41; still above the warning.
    expect(levelEvents(T0 + 2_000)).toEqual([]);
    tradeAt(core, "BTC/USDT", "80000");
    // 1 000 + 3 200 over 3 200.016: 1.31 → still no warning; at 90 000: 1 000 + 3 600 over 3 600.018 = 1.277 → warned.
    expect(levelEvents(T0 + 3_000)).toEqual([]);
    tradeAt(core, "BTC/USDT", "90000");
    expect(levelEvents(T0 + 4_000)).toEqual([{ type: "margin.level", memberId: "7", scope: "all", warned: true, level: 127n }]);
    expect(levelEvents(T0 + 5_000)).toEqual([]);
    expect(core.margin.isWarned("7", "all")).toBe(true);
    // At 250 000: 1 000 + 10 000 over 10 000.05 = 1.09 → due for liquidation.
    tradeAt(core, "BTC/USDT", "250000");
    const out: MarginEvent[] = [];
    expect(core.margin.watchLevels(out)).toEqual([{ owner: "7", scope: "all" }]);
    tradeAt(core, "BTC/USDT", "50000");
    expect(levelEvents(T0 + 6_000)).toEqual([{ type: "margin.level", memberId: "7", scope: "all", warned: false, level: 149n }]);
  });

  it("bounds isolated leverage by the pair's maximum and by the debt already taken", () => {
    const core = funded();
    core.apply({ type: "ledger.deposit", id: "d2", memberId: "7", asset: "USDT", kind: "funding", amount: "1000" });
    core.apply({ type: "margin.transfer", memberId: "7", scope: "BTC/USDT", asset: "USDT", amount: "1000", direction: "in" });
    expect(core.margin.leverageOf("7", "BTC/USDT")).toBe(5);
    expect(core.margin.canBorrow("7", "BTC/USDT", "USDT")).toBe(usdt("4000"));
    expect(core.apply({ type: "margin.leverage", memberId: "7", symbol: "BTC/USDT", leverage: 11 }).code).toBe("MARGIN_BAD_LEVERAGE");
    expect(core.apply({ type: "margin.leverage", memberId: "7", symbol: "BTC/USDT", leverage: 1 }).code).toBe("MARGIN_BAD_LEVERAGE");
    expect(core.apply({ type: "margin.leverage", memberId: "7", symbol: "BTC/USDT", leverage: 10 }).code).toBe("OK");
    expect(core.margin.canBorrow("7", "BTC/USDT", "USDT")).toBe(usdt("9000"));
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "BTC/USDT", asset: "USDT", amount: "6000", at: T0 }).code).toBe("OK");
    // 6 000 of debt on 1 000 of equity needs 7x: 5x is refused, 8x taken.
    expect(core.apply({ type: "margin.leverage", memberId: "7", symbol: "BTC/USDT", leverage: 5 }).code).toBe("MARGIN_BAD_LEVERAGE");
    expect(core.apply({ type: "margin.leverage", memberId: "7", symbol: "BTC/USDT", leverage: 8 }).code).toBe("OK");
    // The isolated account is apart from cross: cross still has its own 1 000.
    expect(core.margin.levelOf("7", "all")).toMatchObject({ assets: usdt("1000"), debts: 0n, level: null });
  });
});

describe("spot orders from a margin account", () => {
  it("trade on the same book, paid from and into the margin account, the counterparty's into theirs", () => {
    const core = funded("1000");
    core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "USDT", amount: "1000", at: T0 });
    core.apply({ type: "ledger.deposit", id: "mm", memberId: "9", asset: "BTC", kind: "spot", amount: "1" });
    core.apply({
      type: "spot.place",
      memberId: "9",
      orderId: "ask",
      symbol: "BTC/USDT",
      side: "sell",
      orderType: "limit",
      tif: "GTC",
      price: "50000",
      quantity: "0.03",
    });
    const buy = core.apply({
      type: "spot.place",
      memberId: "7",
      orderId: "b1",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: "50000",
      quantity: "0.02",
      margin: "all",
    });
    expect(buy.code).toBe("OK");
    expect(buy.events?.find((e) => e.type === "order.placed")).toMatchObject({ account: "margin" });
    expect(core.ledger.posted({ owner: "7", kind: "margin", asset: "BTC" })).toBe(usdt("0.02"));
    expect(core.ledger.posted({ owner: "7", kind: "margin", asset: "USDT" })).toBe(usdt("1000"));
    expect(core.ledger.posted({ owner: "7", kind: "spot", asset: "BTC" })).toBe(0n);
    expect(core.ledger.posted({ owner: "9", kind: "spot", asset: "USDT" })).toBe(usdt("1000"));
    // A resting margin order holds on the margin account; the wrong account for the market is refused.
    expect(
      core.apply({
        type: "spot.place",
        memberId: "7",
        orderId: "b2",
        symbol: "BTC/USDT",
        side: "buy",
        orderType: "limit",
        tif: "GTC",
        price: "40000",
        quantity: "0.01",
        margin: "all",
      }).code,
    ).toBe("OK");
    expect(core.ledger.held({ owner: "7", kind: "margin", asset: "USDT" })).toBe(usdt("400"));
    expect(
      core.apply({
        type: "spot.place",
        memberId: "7",
        orderId: "b3",
        symbol: "BTC/USDT",
        side: "buy",
        orderType: "limit",
        tif: "GTC",
        price: "40000",
        quantity: "0.01",
        margin: "ETH/USDT",
      }).code,
    ).toBe("ORDER_NOT_ON_MARGIN");
    // The isolated account has nothing: its order is refused for funds, and nothing moved.
    expect(
      core.apply({
        type: "spot.place",
        memberId: "7",
        orderId: "b4",
        symbol: "BTC/USDT",
        side: "buy",
        orderType: "limit",
        tif: "GTC",
        price: "40000",
        quantity: "0.01",
        margin: "BTC/USDT",
      }).code,
    ).toBe("RISK_INSUFFICIENT_AVAILABLE");
    // Held funds are still the account's assets: the level counts them, a transfer out cannot take them.
    expect(core.margin.levelOf("7", "all").assets).toBe(usdt("2000"));
    expect(core.apply({ type: "margin.repay", memberId: "7", scope: "all", asset: "USDT", amount: "700" }).code).toBe("MARGIN_INSUFFICIENT");
    expect(core.ledger.checkInvariants()).toEqual([]);
    for (const market of core.markets.values()) expect(market.checkInvariants()).toEqual([]);
  });
});

describe("forced liquidation at 1.10", () => {
  /** Member 7: 1 000 USDT in the isolated BTC/USDT account at 10x, 8 000 USDT borrowed, 0.18 BTC bought at 50 000 from it; a bid of 1 BTC at `bid`. */
  function levered(bid: string) {
    const core = marginCore();
    tradeAt(core, "BTC/USDT", "50000");
    core.apply({ type: "ledger.deposit", id: "d", memberId: "7", asset: "USDT", kind: "funding", amount: "1000" });
    core.apply({ type: "margin.transfer", memberId: "7", scope: "BTC/USDT", asset: "USDT", amount: "1000", direction: "in" });
    core.apply({ type: "margin.leverage", memberId: "7", symbol: "BTC/USDT", leverage: 10 });
    expect(core.apply({ type: "margin.borrow", memberId: "7", scope: "BTC/USDT", asset: "USDT", amount: "8000", at: T0 }).code).toBe("OK");
    core.apply({ type: "ledger.deposit", id: "a", memberId: "9", asset: "BTC", kind: "spot", amount: "1" });
    core.apply({
      type: "spot.place",
      memberId: "9",
      orderId: "ask",
      symbol: "BTC/USDT",
      side: "sell",
      orderType: "limit",
      tif: "GTC",
      price: "50000",
      quantity: "0.18",
    });
    const bought = core.apply({
      type: "spot.place",
      memberId: "7",
      orderId: "long",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "IOC",
      price: "50000",
      quantity: "0.18",
      margin: "BTC/USDT",
    });
    expect(bought.code).toBe("OK");
    // A resting order of the account, which the liquidation cancels (its BTC is sold with the rest).
    const rest = core.apply({
      type: "spot.place",
      memberId: "7",
      orderId: "rest",
      symbol: "BTC/USDT",
      side: "sell",
      orderType: "limit",
      tif: "GTC",
      price: "90000",
      quantity: "0.001",
      margin: "BTC/USDT",
    });
    expect(rest.code).toBe("OK");
    core.apply({ type: "ledger.deposit", id: "b", memberId: "8", asset: "USDT", kind: "spot", amount: "100000" });
    core.apply({
      type: "spot.place",
      memberId: "8",
      orderId: "bid",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: bid,
      quantity: "1",
    });
    return core;
  }
  const liquidation = (core: ReturnType<typeof marginCore>, at: number) => {
    const events = core.apply({ type: "margin.tick", at }).events ?? [];
    return { events, ended: events.find((e) => e.type === "margin.liquidated") };
  };

  it("cancels the account's orders, sells through the book, repays the loan and leaves the rest to the member", () => {
    const core = levered("48800");
    tradeAt(core, "BTC/USDT", "48900");
    // 0.18 BTC at 48 900 is 8 802 over 8 000.04 owed: just above 1.10.
    expect(liquidation(core, T0 + 1_000).ended).toBeUndefined();
    // At 48 850, 8 793: below the line.
    tradeAt(core, "BTC/USDT", "48850");
    const { events, ended } = liquidation(core, T0 + 2_000);
    expect(ended).toEqual({ type: "margin.liquidated", memberId: "7", scope: "BTC/USDT", closed: true });
    expect(events.some((e) => e.type === "order.closed" && e.orderId === "rest")).toBe(true);
    expect(events.some((e) => e.type === "trade" && e.seller === "7" && e.price === 4_880_000n && e.quantity === 1_800n)).toBe(true);
    expect(core.margin.loan("7", "BTC/USDT", "USDT")).toBeUndefined();
    // 0.18 × 48 800 = 8 784, less 8 000.04 repaid: 783.96 stays the member's.
    expect(core.ledger.posted({ owner: "7", kind: "margin:BTC/USDT", asset: "USDT" })).toBe(usdt("783.96"));
    expect(core.ledger.posted({ owner: "7", kind: "margin:BTC/USDT", asset: "BTC" })).toBe(0n);
    expect(core.margin.isWarned("7", "BTC/USDT")).toBe(false);
    expect(core.ledger.checkInvariants()).toEqual([]);
    expect(core.margin.checkInvariants()).toEqual([]);
  });

  it("writes off what the sale cannot repay: the margin insurance first, then the pool", () => {
    const core = levered("40000");
    core.apply({ type: "ledger.deposit", id: "ins", memberId: "@system", asset: "USDT", kind: "margin_insurance", amount: "300" });
    tradeAt(core, "BTC/USDT", "44000");
    const { events, ended } = liquidation(core, T0 + 1_000);
    expect(ended).toMatchObject({ closed: true });
    // 0.18 × 40 000 = 7 200 repaid; 800.04 short: 300 from the insurance, 500.04 from the pool.
    expect(events.find((e) => e.type === "margin.written_off")).toEqual({
      type: "margin.written_off",
      memberId: "7",
      scope: "BTC/USDT",
      asset: "USDT",
      insurance: usdt("300"),
      pool: usdt("500.04"),
    });
    expect(core.ledger.posted({ owner: "@system", kind: "margin_insurance", asset: "USDT" })).toBe(0n);
    expect(core.ledger.posted(lendingAccount("USDT"))).toBe(usdt("0.04") - usdt("500.04"));
    expect(core.margin.lentOf("USDT")).toBe(0n);
    expect(core.ledger.checkInvariants()).toEqual([]);
    expect(core.margin.checkInvariants()).toEqual([]);
  });

  it("leaves the debt while the market is halted, and liquidates once it resumes", () => {
    const core = levered("48000");
    tradeAt(core, "BTC/USDT", "48500");
    core.apply({ type: "market.halt", symbol: "BTC/USDT", halted: true });
    expect(liquidation(core, T0 + 1_000).ended).toMatchObject({ closed: false });
    expect(core.margin.loan("7", "BTC/USDT", "USDT")?.principal).toBe(usdt("8000"));
    core.apply({ type: "market.halt", symbol: "BTC/USDT", halted: false });
    expect(liquidation(core, T0 + 2_000).ended).toMatchObject({ closed: true });
    expect(core.margin.loan("7", "BTC/USDT", "USDT")).toBeUndefined();
  });

  it("buys back a coin owed on cross margin (a short) with the account's USDT", () => {
    const core = funded("1000");
    core.apply({ type: "margin.borrow", memberId: "7", scope: "all", asset: "BTC", amount: "0.04", at: T0 });
    core.apply({ type: "ledger.deposit", id: "b", memberId: "8", asset: "USDT", kind: "spot", amount: "100000" });
    core.apply({
      type: "spot.place",
      memberId: "8",
      orderId: "bid",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: "50000",
      quantity: "1",
    });
    expect(
      core.apply({
        type: "spot.place",
        memberId: "7",
        orderId: "short",
        symbol: "BTC/USDT",
        side: "sell",
        orderType: "limit",
        tif: "IOC",
        price: "50000",
        quantity: "0.04",
        margin: "all",
      }).code,
    ).toBe("OK");
    // 3 000 USDT held against 0.04 BTC owed: at 68 500 the debt is 2 740 (and a little interest), 1.09.
    // The bid's rest is taken back, so the price can move up through nothing.
    core.apply({ type: "spot.cancel", memberId: "8", orderId: "bid" });
    core.apply({ type: "ledger.deposit", id: "a", memberId: "9", asset: "BTC", kind: "spot", amount: "1" });
    core.apply({
      type: "spot.place",
      memberId: "9",
      orderId: "ask",
      symbol: "BTC/USDT",
      side: "sell",
      orderType: "limit",
      tif: "GTC",
      price: "69000",
      quantity: "1",
    });
    tradeAt(core, "BTC/USDT", "68500");
    const { ended } = liquidation(core, T0 + 1_000);
    expect(ended).toMatchObject({ closed: true });
    expect(core.margin.loan("7", "all", "BTC")).toBeUndefined();
    // 0.0401 BTC bought at 69 000 (the lot rounds the 0.0400002 owed up): 2 766.9 USDT; 0.0000998 BTC left over.
    expect(core.ledger.posted({ owner: "7", kind: "margin", asset: "USDT" })).toBe(usdt("3000") - usdt("2766.9"));
    expect(core.ledger.posted({ owner: "7", kind: "margin", asset: "BTC" })).toBe(usdt("0.0000998"));
    expect(core.ledger.checkInvariants()).toEqual([]);
    expect(core.margin.checkInvariants()).toEqual([]);
  });
});
