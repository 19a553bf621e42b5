import { describe, expect, it } from "vitest";
import type { Command } from "./commands";
import type { CoreSnapshot } from "./core-snapshot";
import { ExchangeCore } from "./exchange-core";
import { HOUR_MS } from "../margin/margin";
import { marginCore } from "../margin/margin-test-kit";
import { random } from "../../testing/seeded-stream";

const MEMBERS = ["1", "2", "3", "4", "5"];
const START = Date.UTC(2026, 10, 1, 0, 20, 0);

/**
 * Margin commands at random: transfers in and out of cross and isolated accounts, borrows and
 * repayments of every coin (many refused: over the limit, below the minimum, more than owed),
 * leverage changes, pool rule changes, the loop's ticks a quarter hour apart (interest every
 * hour), and spot trades between market makers that move BTC's and ETH's prices both ways.
 */
function marginStream(seed: number, length: number): Command[] {
  const r = random(seed);
  const commands: Command[] = [];
  for (const m of MEMBERS)
    for (const [asset, amount] of [
      ["USDT", "20000"],
      ["BTC", "1"],
      ["ETH", "10"],
    ] as const)
      commands.push({ type: "ledger.deposit", id: `d-${m}-${asset}`, memberId: m, asset, kind: "funding", amount });
  commands.push({ type: "ledger.deposit", id: "mm-usdt", memberId: "@mm-buy", asset: "USDT", kind: "spot", amount: "100000000" });
  commands.push({ type: "ledger.deposit", id: "mm-btc", memberId: "@mm-sell", asset: "BTC", kind: "spot", amount: "1000" });
  commands.push({ type: "ledger.deposit", id: "mm-eth", memberId: "@mm-sell", asset: "ETH", kind: "spot", amount: "10000" });
  const prices: Record<string, number> = { BTC: 50_000, ETH: 3_000 };
  let at = START;
  const scopes = ["all", "BTC/USDT", "ETH/USDT"] as const;
  const orderIds: string[] = [];
  const coinsOf = (scope: (typeof scopes)[number]) => (scope === "all" ? ["USDT", "BTC", "ETH"] : ["USDT", scope.split("/")[0]!]);
  const amountOf = (asset: string, most: number) =>
    asset === "USDT" ? (r.next() * most * 1000).toFixed(2) : asset === "BTC" ? (r.next() * most * 0.02).toFixed(5) : (r.next() * most * 0.3).toFixed(4);
  for (let i = 0; i < length; i++) {
    const member = r.pick(MEMBERS);
    const scope = r.pick(scopes);
    const asset = r.pick(coinsOf(scope));
    const roll = r.next();
    /** A trade at a new price between two market makers (the one left resting, if any, taken back). */
    const move = (base: "BTC" | "ETH", factor: number) => {
      prices[base] = prices[base]! * factor;
      const price = prices[base]!.toFixed(2);
      const symbol = `${base}/USDT`;
      commands.push({
        type: "spot.place",
        memberId: "@mm-sell",
        orderId: `s${i}`,
        symbol,
        side: "sell",
        orderType: "limit",
        tif: "GTC",
        price,
        quantity: "0.001",
      });
      commands.push({
        type: "spot.place",
        memberId: "@mm-buy",
        orderId: `b${i}`,
        symbol,
        side: "buy",
        orderType: "limit",
        tif: "IOC",
        price,
        quantity: "0.001",
      });
      commands.push({ type: "spot.cancel", memberId: "@mm-sell", orderId: `s${i}` });
    };
    if (roll < 0.15 || i < 2) {
      move(r.pick(["BTC", "ETH"] as const), 1 + (r.next() - 0.5) * 0.16);
    } else if (roll < 0.2) {
      // A member trades from a margin account (cross, or the market's isolated one; now and then the
      // wrong one, refused): limits around the price, some resting, some crossing the makers' quotes.
      const base = r.pick(["BTC", "ETH"] as const);
      const symbol = `${base}/USDT`;
      const side = r.next() < 0.5 ? "buy" : "sell";
      const price = (prices[base]! * (1 + (r.next() - 0.5) * 0.04)).toFixed(2);
      const quantity = (base === "BTC" ? 0.001 + r.next() * 0.03 : 0.01 + r.next() * 0.5).toFixed(4);
      const margin = r.next() < 0.1 ? "ETH/USDT" : r.next() < 0.5 ? "all" : symbol;
      const orderId = `mo${i}`;
      orderIds.push(orderId);
      commands.push({ type: "spot.place", memberId: member, orderId, symbol, side, orderType: "limit", tif: "GTC", price, quantity, margin });
      // The makers quote both sides around the price, so members' orders fill.
      const quote = (s: "buy" | "sell", p: number) => ({
        type: "spot.place" as const,
        memberId: s === "sell" ? "@mm-sell" : "@mm-buy",
        orderId: `q${i}${s}`,
        symbol,
        side: s,
        orderType: "limit" as const,
        tif: "GTC" as const,
        price: p.toFixed(2),
        quantity: "0.05",
      });
      commands.push(quote("sell", prices[base]! * 1.005), quote("buy", prices[base]! * 0.995));
    } else if (roll < 0.215) {
      // A member goes all in on an isolated account: 10x, borrowed USDT spent on the coin at the market (liquidations come).
      const base = r.pick(["BTC", "ETH"] as const);
      const symbol = `${base}/USDT`;
      commands.push(
        { type: "margin.transfer", memberId: member, scope: symbol, asset: "USDT", amount: "500", direction: "in" },
        { type: "margin.leverage", memberId: member, symbol, leverage: base === "BTC" ? 10 : 5 },
        { type: "margin.borrow", memberId: member, scope: symbol, asset: "USDT", amount: base === "BTC" ? "4000" : "1800", at },
        {
          type: "spot.place",
          memberId: "@mm-sell",
          orderId: `qa${i}`,
          symbol,
          side: "sell",
          orderType: "limit",
          tif: "GTC",
          price: (prices[base]! * 1.001).toFixed(2),
          quantity: base === "BTC" ? "0.2" : "1",
        },
        {
          type: "spot.place",
          memberId: member,
          orderId: `all${i}`,
          symbol,
          side: "buy",
          orderType: "market",
          tif: "IOC",
          money: base === "BTC" ? "4500" : "2300",
          margin: symbol,
        },
      );
      // Half the time the market turns against them at once, and the loop ticks.
      if (r.next() < 0.5) {
        move(base, 0.95);
        commands.push({ type: "margin.tick", at: (at += 1_000) });
      }
    } else if (roll < 0.23 && orderIds.length) {
      commands.push({ type: "spot.cancel", memberId: member, orderId: r.pick(orderIds) });
    } else if (roll < 0.3) {
      at += 15 * 60_000 + r.int(60_000);
      commands.push({ type: "margin.tick", at });
    } else if (roll < 0.45) {
      const direction = r.next() < 0.7 ? "in" : "out";
      commands.push({ type: "margin.transfer", memberId: member, scope, asset, amount: amountOf(asset, 4), direction });
    } else if (roll < 0.7) {
      commands.push({ type: "margin.borrow", memberId: member, scope, asset, amount: amountOf(asset, 6), at: at + r.int(60_000) });
    } else if (roll < 0.92) {
      commands.push({ type: "margin.repay", memberId: member, scope, asset, amount: amountOf(asset, 3) });
    } else if (roll < 0.97) {
      commands.push({ type: "margin.leverage", memberId: member, symbol: r.pick(["BTC/USDT", "ETH/USDT"]), leverage: 1 + r.int(11) });
    } else {
      commands.push({
        type: "margin.pool",
        asset: r.pick(["USDT", "BTC", "ETH"]),
        hourlyRate: r.pick(["0.000002", "0.00001", "0.05"]),
        limit: r.pick(["3", "1000000", "1000000", "1000000"]),
      });
    }
  }
  return commands;
}

describe("margin in the exchange core", () => {
  it.each([3, 7, 11])("keeps every asset summing to zero and each debt on its loan account, live, by replay and from a snapshot (seed %i)", (seed) => {
    const commands = marginStream(seed, 2_500);
    const live = marginCore("m");
    const accepted: Command[] = [];
    const seen = new Set<string>();
    let snapshot: CoreSnapshot | null = null;
    for (const [i, command] of commands.entries()) {
      const outcome = live.apply(command);
      if (outcome.seq !== null) {
        accepted.push(command);
        for (const e of outcome.events) {
          seen.add(e.type === "margin.level" ? `level ${e.warned}` : e.type);
          if (e.type === "transfer" && e.credit?.includes("/lending/")) seen.add("interest charged");
          if (e.type === "trade" && [e.buyer, e.seller].some((m) => !m.startsWith("@")) && command.type === "spot.place" && command.margin)
            seen.add("margin order");
        }
      } else seen.add(`refused ${outcome.code}`);
      if (i === 1_800) snapshot = JSON.parse(JSON.stringify(live.snapshot())) as CoreSnapshot;
      if (i % 250 === 0) {
        expect(live.ledger.checkInvariants()).toEqual([]);
        expect(live.margin.checkInvariants()).toEqual([]);
        for (const market of live.markets.values()) expect(market.checkInvariants()).toEqual([]);
      }
    }
    expect(live.ledger.checkInvariants()).toEqual([]);
    expect(live.margin.checkInvariants()).toEqual([]);
    // Members traded from margin accounts, and some of those orders still rest (the snapshot and the replay carry them).
    expect(seen).toContain("margin order");
    expect(seen).toContain("refused ORDER_NOT_ON_MARGIN");
    const resting = [...live.markets.values()].flatMap((m) => [...m.book.resting()]).filter((o) => /^mo/.test(o.id));
    expect(resting.length).toBeGreaterThan(0);
    for (const kind of [
      "trade",
      "level false",
      "margin.borrowed",
      "margin.repaid",
      "margin.transferred",
      "margin.accrued",
      "margin.leverage",
      "margin.pool",
      "level true",
      "margin.liquidated",
      "interest charged",
      "refused MARGIN_OVER_LIMIT",
      "refused MARGIN_REPAY_EXCEEDS",
      "refused MARGIN_LEVEL_UNSAFE",
      "refused MARGIN_BAD_LEVERAGE",
    ])
      expect(seen).toContain(kind);
    // Interest was charged hour after hour (the pools earned it; a liquidation's shortfall may have cost them more).

    const replayed = marginCore("m");
    for (const [i, command] of accepted.entries()) expect(replayed.apply(command).seq).toBe(i + 1);
    expect(replayed.stateHash()).toBe(live.stateHash());

    const restored = ExchangeCore.fromSnapshot(snapshot!, "m");
    for (const command of accepted.slice(snapshot!.seq)) expect(restored.apply(command).seq).not.toBeNull();
    expect(restored.stateHash()).toBe(live.stateHash());
    expect(restored.margin.checkInvariants()).toEqual([]);
  });

  it("charges every open loan whose hour began in one tick, each charge a transfer", () => {
    const core = marginCore("b");
    for (let m = 0; m < 1_000; m++) {
      core.apply({ type: "ledger.deposit", id: `d${m}`, memberId: `${m}`, asset: "USDT", kind: "funding", amount: "1000" });
      core.apply({ type: "margin.transfer", memberId: `${m}`, scope: "all", asset: "USDT", amount: "1000", direction: "in" });
      expect(core.apply({ type: "margin.borrow", memberId: `${m}`, scope: "all", asset: "USDT", amount: "100", at: START }).code).toBe("OK");
    }
    const tick = core.apply({ type: "margin.tick", at: START + HOUR_MS });
    expect(tick.events!.filter((e) => e.type === "transfer")).toHaveLength(1_000);
    expect(tick.events!.at(-1)).toMatchObject({ type: "margin.accrued", loans: 1_000 });
    expect(core.margin.checkInvariants()).toEqual([]);
  });
});
