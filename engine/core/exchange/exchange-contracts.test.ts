import { describe, expect, it } from "vitest";
import { toMinor } from "../../../protocol/money";
import { accountId, type AccountKind } from "../ledger/ledger";
import type { PerpetualConfig } from "../contracts/perpetual";
import type { Command } from "./commands";
import type { CoreSnapshot } from "./core-snapshot";
import { ExchangeCore } from "./exchange-core";
import { random } from "../../testing/seeded-stream";

const rate = (percent: string) => toMinor(percent, 6);
const LINEAR: PerpetualConfig = {
  symbol: "BTC/USDT",
  base: "BTC",
  quote: "USDT",
  settleAsset: "USDT",
  spec: { kind: "linear", priceScale: 1, settleScale: 8, multiplier: 1n, multiplierScale: 3 },
  tickSize: 1n,
  minQty: 1n,
  maxQty: 100_000n,
  makerFeeBps: 2,
  takerFeeBps: 5,
  tiers: [
    { maxValue: toMinor("50000", 8), maxLeverage: 100, mmr: rate("0.4") },
    { maxValue: toMinor("1000000", 8), maxLeverage: 20, mmr: rate("1") },
  ],
  priceBand: rate("5"),
  defaultLeverage: 20,
  impactQty: 20n,
  markRules: { smoothing: 10, basisCap: rate("0.5"), fundingIntervalMs: 3_600_000, funding: { interest: 10_000n, dampener: 50_000n, cap: 375_000n } },
};
const INVERSE: PerpetualConfig = {
  ...LINEAR,
  symbol: "BTC/USD",
  quote: "USD",
  settleAsset: "BTC",
  spec: { kind: "inverse", priceScale: 1, settleScale: 8, multiplier: 100n, multiplierScale: 0 },
  tickSize: 5n,
  tiers: [
    { maxValue: toMinor("5", 8), maxLeverage: 100, mmr: rate("0.5") },
    { maxValue: toMinor("100", 8), maxLeverage: 20, mmr: rate("2") },
  ],
};

function freshCore(): ExchangeCore {
  const core = new ExchangeCore("c");
  core.listAsset("USDT", 8);
  core.listAsset("BTC", 8);
  core.openContract(structuredClone(LINEAR));
  core.openContract(structuredClone(INVERSE));
  return core;
}

const MEMBERS = ["1", "2", "3", "4", "5", "6"];
const START = Date.UTC(2026, 10, 1, 0, 0, 30);

/**
 * Every contract command at random: ticks of an index on a random walk (stale now and then), a
 * minute apart, so funding falls due every hour; orders of every kind from members with little
 * and much margin (liquidations come), cancels, leverage and margin changes, one-key closes, rule
 * changes and halts, transfers in and out of the contract account. Refusals are part of it.
 */
function contractStream(seed: number, length: number): Command[] {
  const r = random(seed);
  const commands: Command[] = [];
  const orderIds: string[] = [];
  for (const m of MEMBERS) {
    const rich = Number(m) % 2 === 0;
    commands.push({ type: "ledger.deposit", id: `d-${m}-usdt`, memberId: m, asset: "USDT", kind: "contract", amount: rich ? "100000" : "800" });
    commands.push({ type: "ledger.deposit", id: `d-${m}-btc`, memberId: m, asset: "BTC", kind: "contract", amount: rich ? "3" : "0.02" });
    commands.push({ type: "ledger.deposit", id: `d-${m}-fund`, memberId: m, asset: "USDT", kind: "funding", amount: "5000" });
  }
  let index = 50_000;
  let at = START;
  const contracts = [LINEAR, INVERSE];
  for (let i = 0; i < length; i++) {
    const member = r.pick(MEMBERS);
    const roll = r.next();
    if (roll < 0.12 || i < 3) {
      index *= 1 + (r.next() - 0.5) * 0.02;
      at += 60_000;
      const stale = r.next() < 0.05;
      commands.push({
        type: "contract.tick",
        at,
        prices: [
          ["BTC/USDT", stale ? null : index.toFixed(1)],
          ["BTC/USD", stale ? null : (Math.round(index / 5) * 5).toFixed(0)],
        ],
      });
    } else if (roll < 0.23 && orderIds.length) {
      commands.push({ type: "contract.cancel", memberId: r.next() < 0.9 ? member : "nobody", orderId: r.pick(orderIds) });
    } else if (roll < 0.265) {
      commands.push({ type: "contract.margin_mode", memberId: member, symbol: r.pick(contracts).symbol, mode: r.pick(["cross", "isolated"] as const) });
    } else if (roll < 0.28) {
      commands.push({ type: "contract.leverage", memberId: member, symbol: r.pick(contracts).symbol, leverage: r.pick([1, 5, 10, 20, 50, 100, 0]) });
    } else if (roll < 0.31) {
      const c = r.pick(contracts);
      const amount = c === LINEAR ? String(r.int(400) - 150) : (r.int(400) / 100_000 - 0.0015).toFixed(5);
      commands.push({ type: "contract.margin", memberId: member, symbol: c.symbol, amount });
    } else if (roll < 0.32) {
      commands.push({ type: "contract.close_all", memberId: member, orderId: `k${i}`, symbols: ["BTC/USDT", "BTC/USD"] });
    } else if (roll < 0.325) {
      commands.push({ type: "contract.rules", symbol: r.pick(contracts).symbol, takerFeeBps: r.int(10), halted: r.next() < 0.2 });
    } else if (roll < 0.37) {
      // Stop orders and take profit / stop loss, a little either side of the index.
      const c = r.pick(contracts);
      const tick = Number(c.tickSize) / 10;
      const near = (spread: number) => (Math.round((index * (1 + (r.next() - 0.5) * spread)) / tick) * tick).toFixed(1);
      const stopId = `s${i}`;
      orderIds.push(stopId);
      const triggerBy = r.pick(["mark", "last"] as const);
      if (r.next() < 0.3) {
        const tp = near(0.02);
        const sl = near(0.02);
        commands.push({ type: "contract.tpsl", memberId: member, stopId, symbol: c.symbol, triggerBy, takeProfit: tp, stopLoss: sl });
      } else {
        const market = r.next() < 0.5;
        commands.push({
          type: "contract.stop",
          memberId: member,
          stopId,
          symbol: c.symbol,
          side: r.next() < 0.5 ? "buy" : "sell",
          action: r.next() < 0.6 ? "open" : "close",
          orderType: market ? "market" : "limit",
          tif: market ? "IOC" : "GTC",
          ...(market ? {} : { price: near(0.02) }),
          quantity: String(1 + r.int(c === LINEAR ? 200 : 100)),
          triggerBy,
          triggerPrice: near(0.01),
        });
      }
    } else if (roll < 0.375) {
      // An operator moves fees into an insurance fund (refused when the fees are short).
      const asset = r.pick(["USDT", "BTC"]);
      commands.push({ type: "contract.insurance", asset, amount: asset === "USDT" ? String(1 + r.int(50)) : "0.0001" });
    } else if (roll < 0.38) {
      const [from, to]: [AccountKind, AccountKind] = r.next() < 0.5 ? ["funding", "contract"] : ["contract", "funding"];
      commands.push({ type: "ledger.transfer", id: `t${i}`, memberId: member, asset: "USDT", from, to, amount: String(1 + r.int(2000)) });
    } else {
      const c = r.pick(contracts);
      const side = r.next() < 0.5 ? "buy" : "sell";
      const orderId = `o${i}`;
      orderIds.push(orderId);
      const offset = (r.next() - 0.5) * 0.03 * index;
      const tick = Number(c.tickSize) / 10;
      const price = (Math.round((index + offset) / tick) * tick).toFixed(1);
      const market = r.next() < 0.25;
      commands.push({
        type: "contract.place",
        memberId: member,
        orderId,
        symbol: c.symbol,
        side,
        action: r.next() < 0.65 ? "open" : "close",
        orderType: market ? "market" : "limit",
        tif: market ? r.pick(["IOC", "FOK"] as const) : r.pick(["GTC", "GTC", "GTC", "IOC", "POST_ONLY"] as const),
        ...(market ? {} : { price }),
        quantity: String(1 + r.int(c === LINEAR ? 400 : 200)),
      });
    }
  }
  return commands;
}

describe("perpetual contracts in the exchange core", () => {
  it.each([1, 7, 23])("keep every asset summing to zero and reach one state hash live, by replay and from a snapshot (seed %i)", (seed) => {
    const commands = contractStream(seed, 3_000);
    const live = freshCore();
    const accepted: Command[] = [];
    const seen = new Set<string>();
    let snapshot: CoreSnapshot | null = null;
    for (const [i, command] of commands.entries()) {
      const outcome = live.apply(command);
      if (outcome.seq !== null) {
        accepted.push(command);
        for (const e of outcome.events) {
          seen.add(e.type === "contract.mark" && e.funded ? "funded" : e.type === "contract.stop_ended" ? `stop ${e.status}` : e.type);
        }
      }
      if (i === 2_000) snapshot = JSON.parse(JSON.stringify(live.snapshot())) as CoreSnapshot;
      if (i % 500 === 0) {
        expect(live.ledger.checkInvariants()).toEqual([]);
        expect(live.checkContractInvariants()).toEqual([]);
      }
    }
    expect(live.ledger.checkInvariants()).toEqual([]);
    expect(live.checkContractInvariants()).toEqual([]);
    // The stream reached what it is for: trades, closes, liquidations, funding paid.
    for (const kind of [
      "contract.trade",
      "contract.position",
      "contract.liquidated",
      "contract.funding",
      "funded",
      "contract.leverage",
      "contract.stop_placed",
      "stop triggered",
      "stop cancelled",
      "contract.insurance_funded",
      "contract.margin_mode",
    ])
      expect(seen).toContain(kind);
    expect(accepted.length).toBeGreaterThan(800);

    const replayed = freshCore();
    for (const [i, command] of accepted.entries()) expect(replayed.apply(command).seq).toBe(i + 1);
    expect(replayed.stateHash()).toBe(live.stateHash());

    const restored = ExchangeCore.fromSnapshot(snapshot!, "c");
    for (const command of accepted.slice(snapshot!.seq)) expect(restored.apply(command).seq).not.toBeNull();
    expect(restored.stateHash()).toBe(live.stateHash());
    // The same snapshot, but for the order of the accounts' lines (an account empty at the snapshot is made again later).
    const sorted = (s: CoreSnapshot) => ({ ...s, accounts: s.accounts.split("\n").sort().join("\n") });
    expect(sorted(restored.snapshot())).toEqual(sorted(live.snapshot()));
  });

  it("refuses what it cannot do and changes nothing: no mark yet, unknown contract, halted, bad numbers, a one-key close with nothing open", () => {
    const core = freshCore();
    core.apply({ type: "ledger.deposit", id: "d", memberId: "1", asset: "USDT", kind: "contract", amount: "1000" });
    const order = {
      type: "contract.place",
      memberId: "1",
      orderId: "a",
      symbol: "BTC/USDT",
      side: "buy",
      action: "open",
      orderType: "limit",
      tif: "GTC",
      price: "50000",
      quantity: "1",
    } as const;
    const before = core.stateHash();
    expect(core.apply(order).code).toBe("CONTRACT_NO_PRICE");
    expect(core.apply({ type: "contract.tick", at: START, prices: [["ETH/USDT", "1"]] }).code).toBe("CONTRACT_UNKNOWN");
    expect(core.apply({ type: "contract.tick", at: START, prices: [["BTC/USDT", "-5"]] }).code).toBe("CONTRACT_BAD_ORDER");
    expect(core.stateHash()).toBe(before);
    expect(core.apply({ type: "contract.tick", at: START, prices: [["BTC/USDT", "50000"]] }).code).toBe("OK");
    expect(core.apply({ ...order, symbol: "ETH/USDT" }).code).toBe("CONTRACT_UNKNOWN");
    expect(core.apply({ ...order, price: "50000.05" }).code).toBe("CONTRACT_TICK");
    expect(core.apply({ ...order, quantity: "1.5" }).code).toBe("CONTRACT_QTY");
    expect(core.apply({ ...order, orderType: "market" }).code).toBe("CONTRACT_BAD_ORDER");
    expect(core.apply({ type: "contract.close_all", memberId: "1", orderId: "k", symbols: ["BTC/USDT"] }).code).toBe("CONTRACT_NOTHING_TO_CLOSE");
    expect(core.apply({ type: "contract.rules", symbol: "BTC/USDT", maxQty: "0" })).toMatchObject({ code: "CONTRACT_BAD_RULES", problem: expect.any(String) });
    expect(core.apply({ type: "contract.rules", symbol: "BTC/USDT", halted: true }).code).toBe("OK");
    expect(core.apply(order).code).toBe("CONTRACT_HALTED");
    expect(core.apply({ type: "contract.rules", symbol: "BTC/USDT", halted: false }).code).toBe("OK");
    const placed = core.apply(order);
    expect(placed.code).toBe("OK");
    // 1 contract of 0.001 BTC at 50000: 50 USDT at the default 20x holds 2.5 + the taker fee 0.025.
    const contract = accountId({ owner: "1", kind: "contract", asset: "USDT" });
    expect(core.ledger.balanceOf(contract)).toEqual({ posted: toMinor("1000", 8), held: toMinor("2.525", 8) });
    expect(core.apply({ type: "contract.leverage", memberId: "1", symbol: "BTC/USDT", leverage: 10 }).code).toBe("CONTRACT_ORDERS_OPEN");
  });

  it("closes a whole position at one key whatever the order limits, and liquidates nobody in a halted contract", async () => {
    const core = freshCore();
    for (const m of ["1", "2", "3"]) core.apply({ type: "ledger.deposit", id: `d${m}`, memberId: m, asset: "USDT", kind: "contract", amount: "100000" });
    core.apply({ type: "contract.tick", at: START, prices: [["BTC/USDT", "50000"]] });
    const order = (memberId: string, side: "buy" | "sell", price: string, quantity: string, tif: "GTC" | "IOC" = "GTC") =>
      core.apply({
        type: "contract.place",
        memberId,
        orderId: `${memberId}-${side}-${price}`,
        symbol: "BTC/USDT",
        side,
        action: "open",
        orderType: "limit",
        tif,
        price,
        quantity,
      });
    expect(order("1", "sell", "50000", "50").code).toBe("OK");
    expect(order("2", "buy", "50000", "50", "IOC").code).toBe("OK");
    expect(order("3", "buy", "49990", "50").code).toBe("OK");
    // The maximum order falls below the position: its one-key close still closes all of it.
    expect(core.apply({ type: "contract.rules", symbol: "BTC/USDT", maxQty: "10" }).code).toBe("OK");
    const closed = core.apply({ type: "contract.close_all", memberId: "2", orderId: "k1", symbols: ["BTC/USDT"] });
    expect(closed.code).toBe("OK");
    const market = core.contracts.get("BTC/USDT")!.market;
    expect(market.position("2")).toBeUndefined();
    expect(core.checkContractInvariants()).toEqual([]);

    // Member 3 is long 50 at 20x; halted, a fall far past its liquidation price liquidates nobody; resumed, it does.
    expect(market.position("3")?.qty).toBe(50n);
    expect(core.apply({ type: "contract.rules", symbol: "BTC/USDT", halted: true }).code).toBe("OK");
    const halted = core.apply({ type: "contract.tick", at: START + 1_000, prices: [["BTC/USDT", "40000"]] });
    expect(halted.events!.some((e) => e.type === "contract.liquidated")).toBe(false);
    expect(market.position("3")?.qty).toBe(50n);
    expect(core.apply({ type: "contract.rules", symbol: "BTC/USDT", halted: false }).code).toBe("OK");
    const resumed = core.apply({ type: "contract.tick", at: START + 2_000, prices: [["BTC/USDT", "40000"]] });
    expect(resumed.events!.some((e) => e.type === "contract.liquidated" && e.memberId === "3")).toBe(true);
    // No bids were left: the insurance fund took it over, and the member's position is told as gone.
    expect(resumed.events!.filter((e) => e.type === "contract.position" && e.memberId === "3").at(-1)).toMatchObject({ qty: 0n, side: null });
    expect(market.position("3")).toBeUndefined();
    expect(core.ledger.checkInvariants()).toEqual([]);
    expect(core.checkContractInvariants()).toEqual([]);
  });
});
