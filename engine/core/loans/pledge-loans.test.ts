import { describe, expect, it } from "vitest";
import { fromMinor } from "../../../protocol/money";
import type { Command } from "../exchange/commands";
import type { CoreSnapshot } from "../exchange/core-snapshot";
import { ExchangeCore } from "../exchange/exchange-core";
import type { CoreEvent } from "../exchange/events";
import { HOUR_MS } from "../margin/margin";
import { tradeAt } from "../margin/margin-test-kit";
import { collateralKind, debtKind, pledgePoolAccount } from "./pledge-loans";
import { btcLoanProduct, pledgeCore } from "./pledge-test-kit";
import { random } from "../../testing/seeded-stream";

const START = Date.UTC(2026, 10, 1, 0, 20, 0);
const usdt = (v: bigint) => fromMinor(v, 8, { trim: true });

function setUp() {
  const core = pledgeCore();
  tradeAt(core, "BTC/USDT", "50000");
  core.apply({ type: "ledger.deposit", id: "alice-btc", memberId: "alice", asset: "BTC", kind: "funding", amount: "1" });
  const borrow = (amount: string, collateral: string, productId = "USDT-BTC-7", at = START) =>
    core.apply({ type: "pledge.borrow", memberId: "alice", productId, amount, collateral, at });
  const loanIdOf = (events: readonly CoreEvent[]) => events.find((e) => e.type === "pledge.borrowed")!.loanId;
  const funding = (asset: string) => usdt(core.ledger.posted({ owner: "alice", kind: "funding", asset }));
  return { core, borrow, loanIdOf, funding };
}

describe("crypto loans in the core", () => {
  it("lends up to the initial LTV, charges the first hour at once, and holds the collateral on the loan's own account", () => {
    const { core, borrow, loanIdOf, funding } = setUp();
    // 33 000 against 1 BTC at 50 000 is 66 %: over 65 %.
    expect(borrow("33000", "1").code).toBe("PLEDGE_LTV_TOO_HIGH");
    expect(borrow("50", "1").code).toBe("PLEDGE_BELOW_MINIMUM");
    expect(borrow("2000000", "1").code).toBe("PLEDGE_ABOVE_MAXIMUM");
    expect(borrow("1000", "2").code).toBe("PLEDGE_INSUFFICIENT");
    expect(borrow("1000", "0.1", "nope").code).toBe("PLEDGE_UNKNOWN_PRODUCT");
    expect(borrow("1000.000000001", "0.1").code).toBe("PLEDGE_BAD_AMOUNT");
    const taken = borrow("30000", "1");
    expect(taken.code).toBe("OK");
    const id = loanIdOf(taken.events!);
    expect(core.pledges.loan(id)).toMatchObject({ principal: 3_000_000_000_000n, interest: 30_000_000n, dueAt: START + 7 * 86_400_000 });
    expect(funding("USDT")).toBe("30000");
    expect(funding("BTC")).toBe("0");
    expect(usdt(core.ledger.posted({ owner: "alice", kind: collateralKind(id), asset: "BTC" }))).toBe("1");
    expect(usdt(core.ledger.posted({ owner: "alice", kind: debtKind(id), asset: "USDT" }))).toBe("-30000.3");
    expect(usdt(core.ledger.posted(pledgePoolAccount("USDT")))).toBe("0.3");
    expect(core.ledger.checkInvariants()).toEqual([]);
    expect(core.pledges.checkInvariants()).toEqual([]);
  });

  it("charges each hour begun at the product's rate, and the hours after the due time at the overdue rate", () => {
    const { core, borrow, loanIdOf } = setUp();
    const id = loanIdOf(borrow("10000", "0.5").events!);
    const interest = () => usdt(core.pledges.loan(id)!.interest);
    expect(interest()).toBe("0.1");
    // 00:59: the second hour has not begun.
    core.apply({ type: "pledge.tick", at: START + 39 * 60_000 });
    expect(interest()).toBe("0.1");
    // 03:30: hours 01:00, 02:00 and 03:00 begun, 0.1 each.
    core.apply({ type: "pledge.tick", at: START + 3 * HOUR_MS + 10 * 60_000 });
    expect(interest()).toBe("0.4");
    // Due on day 7 at 00:20: up to the 00:00 hour at 0.1, then 01:00, 02:00 at the overdue 0.3.
    const due = START + 7 * 86_400_000;
    core.apply({ type: "pledge.tick", at: due + 2 * HOUR_MS });
    const ordinary = 7 * 24 - 4 + 1; // hours 04:00 of day 0 up to 00:00 of day 7
    expect(interest()).toBe(usdt(BigInt(4 + ordinary) * 10_000_000n + 2n * 30_000_000n));
    expect(core.pledges.checkInvariants()).toEqual([]);
  });

  it("takes repayments interest first, returns the collateral with the last, and refuses more than owed", () => {
    const { core, borrow, loanIdOf, funding } = setUp();
    const id = loanIdOf(borrow("10000", "0.5").events!);
    expect(core.apply({ type: "pledge.repay", memberId: "alice", loanId: id, amount: "10000.2" }).code).toBe("PLEDGE_REPAY_EXCEEDS");
    expect(core.apply({ type: "pledge.repay", memberId: "bob", loanId: id, amount: "1" }).code).toBe("PLEDGE_UNKNOWN_LOAN");
    const part = core.apply({ type: "pledge.repay", memberId: "alice", loanId: id, amount: "1" });
    expect(part.events!.find((e) => e.type === "pledge.repaid")).toMatchObject({ interest: 10_000_000n, principal: 90_000_000n, closed: false });
    expect(core.pledges.loan(id)).toMatchObject({ principal: 999_910_000_000n, interest: 0n });
    // Not enough USDT in funding for the rest.
    core.apply({ type: "ledger.deposit", id: "alice-usdt", memberId: "alice", asset: "USDT", kind: "funding", amount: "1" });
    const last = core.apply({ type: "pledge.repay", memberId: "alice", loanId: id, amount: "9999.1" });
    expect(last.events!.find((e) => e.type === "pledge.repaid")).toMatchObject({ closed: true });
    expect(core.pledges.loan(id)).toBeUndefined();
    expect(funding("BTC")).toBe("1");
    expect(funding("USDT")).toBe("0.9");
    expect(core.ledger.checkInvariants()).toEqual([]);
    expect(core.pledges.checkInvariants()).toEqual([]);
  });

  it("adds collateral, and lets some go only while the LTV stays at or under the initial one", () => {
    const { core, borrow, loanIdOf, funding } = setUp();
    const id = loanIdOf(borrow("30000", "0.95").events!);
    const change = (amount: string, direction: "add" | "remove") =>
      core.apply({ type: "pledge.collateral", memberId: "alice", loanId: id, amount, direction }).code;
    // 30 000.3 over 0.9 BTC × 50 000 is 66.7 %.
    expect(change("0.05", "remove")).toBe("PLEDGE_LTV_TOO_HIGH");
    expect(change("0.06", "add")).toBe("PLEDGE_INSUFFICIENT");
    expect(change("0.05", "add")).toBe("OK");
    expect(funding("BTC")).toBe("0");
    expect(change("0.05", "remove")).toBe("OK");
    expect(funding("BTC")).toBe("0.05");
    expect(core.pledges.collateralOf(core.pledges.loan(id)!)).toBe(95_000_000n);
  });

  it("warns at the margin call once, and at the liquidation LTV sells the collateral through the book, repays and returns the rest", () => {
    const { core, borrow, loanIdOf, funding } = setUp();
    const id = loanIdOf(borrow("30000", "0.95").events!);
    const tick = () => core.apply({ type: "pledge.tick", at: START + 60_000 }).events!;
    tradeAt(core, "BTC/USDT", "39000");
    // 30 000.3 over 0.95 × 39 000 = 37 050: 81 %.
    expect(tick().filter((e) => e.type === "pledge.ltv")).toMatchObject([{ loanId: id, warned: true }]);
    expect(tick().filter((e) => e.type === "pledge.ltv")).toEqual([]);
    // A buyer at 33 000, then the price falls there: 95.7 %.
    core.apply({ type: "ledger.deposit", id: "bid", memberId: "@bidder", asset: "USDT", kind: "spot", amount: "40000" });
    tradeAt(core, "BTC/USDT", "33000");
    core.apply({
      type: "spot.place",
      memberId: "@bidder",
      orderId: "bid-1",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: "33000",
      quantity: "1",
    });
    const events = tick();
    expect(events.map((e) => e.type)).toContain("pledge.liquidation_step");
    expect(events.find((e) => e.type === "pledge.liquidated")).toMatchObject({ loanId: id, repaid: 3_000_030_000_000n, writtenOff: 0n, closed: true });
    // 0.95 BTC sold for 31 350: 30 000.3 repaid, 1 349.7 back, with the 30 000 borrowed and the 0.05 BTC never pledged.
    expect(funding("USDT")).toBe("31349.7");
    expect(funding("BTC")).toBe("0.05");
    expect(core.pledges.loan(id)).toBeUndefined();
    expect(core.ledger.checkInvariants()).toEqual([]);
    expect(core.pledges.checkInvariants()).toEqual([]);
  });

  it("writes off what a sale cannot repay against the pool, and waits while no one buys", () => {
    const { core, borrow, loanIdOf } = setUp();
    const id = loanIdOf(borrow("30000", "1").events!);
    const tick = () => core.apply({ type: "pledge.tick", at: START + 60_000 }).events!;
    tradeAt(core, "BTC/USDT", "20000");
    // No bid: nothing sold, the loan waits.
    expect(tick().find((e) => e.type === "pledge.liquidated")).toMatchObject({ closed: false, writtenOff: 0n });
    expect(core.pledges.loan(id)).toBeDefined();
    core.apply({ type: "ledger.deposit", id: "bid", memberId: "@bidder", asset: "USDT", kind: "spot", amount: "30000" });
    core.apply({
      type: "spot.place",
      memberId: "@bidder",
      orderId: "bid-2",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: "20000",
      quantity: "1",
    });
    const done = tick().find((e) => e.type === "pledge.liquidated");
    expect(done).toMatchObject({ repaid: 2_000_000_000_000n, writtenOff: 1_000_030_000_000n, closed: true });
    // The pool earned the first hour (0.3) and wrote off 10 000.3.
    expect(usdt(core.ledger.posted(pledgePoolAccount("USDT")))).toBe("-10000");
    expect(core.ledger.checkInvariants()).toEqual([]);
    expect(core.pledges.checkInvariants()).toEqual([]);
  });

  it("refuses products that cannot be: LTVs out of order, an unknown term, no market, a rate above 1 % an hour, a coin change", () => {
    const core = pledgeCore();
    const refused = (change: object) => core.apply({ ...btcLoanProduct(7), ...change });
    expect(refused({ callLtv: "0.6" })).toMatchObject({ code: "PLEDGE_BAD_RULES" });
    expect(refused({ termDays: 14 })).toMatchObject({ code: "PLEDGE_BAD_RULES" });
    expect(refused({ id: "X", collateralAsset: "USDT", loanAsset: "BTC" })).toMatchObject({
      code: "PLEDGE_BAD_RULES",
      problem: "no USDT/BTC market to price and sell the collateral on",
    });
    expect(refused({ hourlyRate: "0.02", overdueRate: "0.03" })).toMatchObject({ code: "PLEDGE_BAD_RULES" });
    expect(refused({ collateralAsset: "ETH" })).toMatchObject({ code: "PLEDGE_BAD_RULES" });
    expect(refused({ hourlyRate: "0.0000000000001" })).toMatchObject({ code: "PLEDGE_BAD_RULES" });
    expect(refused({ enabled: false }).code).toBe("OK");
    expect(core.apply({ type: "pledge.borrow", memberId: "alice", productId: "USDT-BTC-7", amount: "1000", collateral: "1", at: START }).code).toBe(
      "PLEDGE_PRODUCT_DISABLED",
    );
  });
});

/**
 * Loan commands at random: borrows of every product (many refused: over the LTV, out of bounds,
 * not enough collateral), repayments of open loans (in part, in full, too much), collateral in and
 * out, the clock a few hours at a time (past the 7-day terms), prices moving both ways with bids
 * resting under them (so liquidations sell, in full or short), product changes.
 */
function pledgeStream(seed: number, length: number): Command[] {
  const r = random(seed);
  const members = ["1", "2", "3", "4"];
  const commands: Command[] = [];
  for (const m of members)
    for (const [asset, amount] of [
      ["USDT", "5000"],
      ["BTC", "3"],
      ["ETH", "40"],
    ] as const)
      commands.push({ type: "ledger.deposit", id: `d-${m}-${asset}`, memberId: m, asset, kind: "funding", amount });
  commands.push({ type: "ledger.deposit", id: "mm-usdt", memberId: "@mm-buy", asset: "USDT", kind: "spot", amount: "1000000000" });
  commands.push({ type: "ledger.deposit", id: "mm-btc", memberId: "@mm-sell", asset: "BTC", kind: "spot", amount: "1000" });
  commands.push({ type: "ledger.deposit", id: "mm-eth", memberId: "@mm-sell", asset: "ETH", kind: "spot", amount: "10000" });
  const prices: Record<string, number> = { BTC: 50_000, ETH: 3_000 };
  const lastBid: Record<string, string | undefined> = {};
  let at = START;
  for (let i = 0; i < length; i++) {
    const member = r.pick(members);
    const roll = r.next();
    if (roll < 0.12 || i < 2) {
      const base = r.pick(["BTC", "ETH"] as const);
      // Mostly small moves, now and then a crash (liquidations) or a rally.
      prices[base] = prices[base]! * (r.next() < 0.15 ? r.pick([0.6, 0.75, 1.3]) : 1 + (r.next() - 0.5) * 0.1);
      const symbol = `${base}/USDT`;
      const price = prices[base]!.toFixed(2);
      // The last bid under the old price goes first (else the new price would trade into it); whatever a liquidation left of it, too.
      if (lastBid[base]) commands.push({ type: "spot.cancel", memberId: "@mm-buy", orderId: lastBid[base]! });
      lastBid[base] = `bid${i}`;
      commands.push(
        { type: "spot.place", memberId: "@mm-sell", orderId: `s${i}`, symbol, side: "sell", orderType: "limit", tif: "GTC", price, quantity: "0.001" },
        { type: "spot.place", memberId: "@mm-buy", orderId: `b${i}`, symbol, side: "buy", orderType: "limit", tif: "IOC", price, quantity: "0.001" },
        { type: "spot.cancel", memberId: "@mm-sell", orderId: `s${i}` },
        // A bid under the price: what a liquidation sells into (sometimes too low to cover).
        {
          type: "spot.place",
          memberId: "@mm-buy",
          orderId: `bid${i}`,
          symbol,
          side: "buy",
          orderType: "limit",
          tif: "GTC",
          price: (prices[base]! * (0.7 + r.next() * 0.29)).toFixed(2),
          quantity: base === "BTC" ? "2" : "20",
        },
      );
    } else if (roll < 0.4) {
      const productId = r.pick(["USDT-BTC-0", "USDT-BTC-7", "USDT-ETH-30"]);
      const btc = productId !== "USDT-ETH-30";
      const collateral = btc ? (0.05 + r.next()).toFixed(4) : (1 + r.next() * 15).toFixed(3);
      const value = Number(collateral) * (btc ? prices.BTC! : prices.ETH!);
      const amount = (value * (0.3 + r.next() * 0.4)).toFixed(2);
      commands.push({ type: "pledge.borrow", memberId: member, productId, amount, collateral, at: at + r.int(60_000) });
    } else if (roll < 0.6) {
      commands.push({ type: "pledge.repay", memberId: member, loanId: "?", amount: (r.next() * 6000).toFixed(2) });
    } else if (roll < 0.72) {
      commands.push({
        type: "pledge.collateral",
        memberId: member,
        loanId: "?",
        amount: (r.next() * 0.5).toFixed(4),
        direction: r.next() < 0.6 ? "add" : "remove",
      });
    } else if (roll < 0.97) {
      at += r.int(6) * HOUR_MS + r.int(HOUR_MS);
      commands.push({ type: "pledge.tick", at });
    } else {
      commands.push({ ...btcLoanProduct(7), hourlyRate: r.pick(["0.00001", "0.0001"]), overdueRate: "0.0002", enabled: r.next() < 0.8 });
    }
  }
  return commands;
}

describe("crypto loans under random commands", () => {
  it.each([5, 13, 21])("keep every asset summing to zero and each debt on its account, live, by replay and from a snapshot (seed %i)", (seed) => {
    const commands = pledgeStream(seed, 2_000);
    const live = pledgeCore();
    const accepted: Command[] = [];
    const seen = new Set<string>();
    const openIds: string[] = [];
    let snapshot: CoreSnapshot | null = null;
    let acceptedAtSnapshot = 0;
    for (const [i, raw] of commands.entries()) {
      // The stream's loan ids are placeholders: some loan's id (often another member's, or closed: refused), now and then a made-up one.
      const command: Command = "loanId" in raw && openIds.length && i % 9 !== 0 ? { ...raw, loanId: openIds[(i * 7919) % openIds.length]! } : raw;
      const outcome = live.apply(command);
      if (outcome.seq !== null) {
        accepted.push(command);
        for (const e of outcome.events) {
          seen.add(e.type === "pledge.ltv" ? `ltv ${e.warned}` : e.type === "pledge.liquidated" ? `liquidated ${e.closed} ${e.writtenOff > 0n}` : e.type);
          if (e.type === "pledge.borrowed") openIds.push(e.loanId);
          if (e.type === "pledge.repaid" && e.closed) seen.add("repaid in full");
        }
      } else seen.add(`refused ${outcome.code}`);
      if (i === 1_400) {
        snapshot = JSON.parse(JSON.stringify(live.snapshot())) as CoreSnapshot;
        acceptedAtSnapshot = accepted.length;
      }
      if (i % 200 === 0) {
        expect(live.ledger.checkInvariants()).toEqual([]);
        expect(live.pledges.checkInvariants()).toEqual([]);
      }
    }
    expect(live.ledger.checkInvariants()).toEqual([]);
    expect(live.pledges.checkInvariants()).toEqual([]);
    for (const what of [
      "pledge.borrowed",
      "pledge.repaid",
      "repaid in full",
      "pledge.collateral",
      "ltv true",
      "ltv false",
      "liquidated true false",
      "liquidated true true",
      "refused PLEDGE_LTV_TOO_HIGH",
    ])
      expect([...seen].sort().join(" | "), what).toContain(what);

    const replay = pledgeCore();
    for (const command of accepted) expect(replay.apply(command).code).toBe("OK");
    expect(replay.stateHash()).toBe(live.stateHash());

    const restored = ExchangeCore.fromSnapshot(snapshot!, "p");
    for (const command of accepted.slice(acceptedAtSnapshot)) expect(restored.apply(command).code).toBe("OK");
    expect(restored.stateHash()).toBe(live.stateHash());
  });
});
