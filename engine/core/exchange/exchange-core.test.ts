import { describe, expect, it } from "vitest";
import { transfersOf } from "../../testing/core-events";
import type { Command } from "./commands";
import type { CoreSnapshot } from "./core-snapshot";
import { ExchangeCore } from "./exchange-core";
import { random } from "../../testing/seeded-stream";

function freshCore(): ExchangeCore {
  const core = new ExchangeCore("t");
  core.listAsset("USDT", 8);
  core.listAsset("BTC", 8);
  core.openMarket({
    symbol: "BTC/USDT",
    base: "BTC",
    quote: "USDT",
    priceScale: 2,
    amountScale: 4,
    baseAssetScale: 8,
    quoteAssetScale: 8,
    tickSize: 1n,
    lotSize: 1n,
    minQuantity: 10n,
    makerFeeBps: 10n,
    takerFeeBps: 20n,
  });
  return core;
}

const MEMBERS = ["1", "2", "3", "4", "5"];

/**
 * A random stream of every kind of command: deposits, transfers, limit and market orders of
 * every time in force, stops, cancels (some of unknown or others' orders), halts, rule changes
 * and a second market listed midway. Some are refused; that is part of the test.
 */
function commandStream(seed: number, length: number): Command[] {
  const r = random(seed);
  const commands: Command[] = [];
  const orderIds: string[] = [];
  const withdrawalIds: string[] = [];
  const symbols = ["BTC/USDT"];
  for (const m of MEMBERS) {
    commands.push({ type: "ledger.deposit", id: `d-${m}-usdt`, memberId: m, asset: "USDT", kind: "funding", amount: "1000000" });
    commands.push({ type: "ledger.deposit", id: `d-${m}-usdt-spot`, memberId: m, asset: "USDT", kind: "spot", amount: "1000000" });
    commands.push({ type: "ledger.deposit", id: `d-${m}-btc`, memberId: m, asset: "BTC", kind: "spot", amount: "20" });
  }
  for (let i = 0; i < length; i++) {
    const member = r.pick(MEMBERS);
    const roll = r.next();
    if (i === Math.floor(length / 3)) {
      commands.push({
        type: "market.list",
        symbol: "ETH/USDT",
        base: "ETH",
        quote: "USDT",
        priceScale: 2,
        amountScale: 3,
        tickSize: "0.05",
        lotSize: "0.001",
        minQuantity: "0.01",
        makerFeeBps: 5,
        takerFeeBps: 15,
        newBaseScale: 8,
      });
      for (const m of MEMBERS) commands.push({ type: "ledger.deposit", id: `d-${m}-eth`, memberId: m, asset: "ETH", kind: "spot", amount: "100" });
      symbols.push("ETH/USDT");
    } else if (roll < 0.05) {
      commands.push({
        type: "ledger.transfer",
        id: `t-${i}`,
        memberId: member,
        asset: "USDT",
        from: r.next() < 0.7 ? "funding" : "spot",
        to: r.next() < 0.7 ? "spot" : "funding",
        amount: String(1 + r.int(200_000)),
      });
    } else if (roll < 0.3 && orderIds.length) {
      const id = r.pick(orderIds);
      commands.push({ type: "spot.cancel", memberId: r.next() < 0.9 ? member : "nobody", orderId: id });
    } else if (roll < 0.31) {
      // Halted now and then, resumed more often: most of the stream trades.
      commands.push({ type: "market.halt", symbol: r.pick(symbols), halted: r.next() < 0.2 });
    } else if (roll < 0.32) {
      commands.push({ type: "market.rules", symbol: r.pick(symbols), makerFeeBps: r.int(30), takerFeeBps: r.int(40) });
    } else if (roll < 0.34) {
      const id = `w${i}`;
      withdrawalIds.push(id);
      commands.push({ type: "wallet.withdraw", id, memberId: member, asset: "USDT", amount: String(1 + r.int(300_000)), fee: r.pick(["0", "1", "2.5"]) });
    } else if (roll < 0.37 && withdrawalIds.length) {
      // Every step from anywhere, some by the wrong member: the refused ones are part of the test.
      const action = r.pick(["approve", "reject", "cancel", "broadcast", "complete"] as const);
      commands.push({
        type: "wallet.withdrawal",
        id: r.pick(withdrawalIds),
        action,
        ...(action === "cancel" ? { memberId: r.next() < 0.8 ? member : "nobody" } : {}),
        ...(action === "reject" ? { reason: "address on a sanctions list" } : {}),
        ...(action === "broadcast" ? { txid: `tx${i}` } : {}),
      });
    } else {
      const symbol = r.pick(symbols);
      const mid = symbol === "BTC/USDT" ? 60_000 : 3_000;
      const price = (mid * (0.97 + r.next() * 0.06)).toFixed(symbol === "BTC/USDT" ? 2 : 1);
      const quantity = (0.001 + r.next() * 0.5).toFixed(3);
      const side = r.next() < 0.5 ? "buy" : "sell";
      const orderId = `o${i}`;
      orderIds.push(orderId);
      const kind = r.next();
      if (kind < 0.65)
        commands.push({
          type: "spot.place",
          memberId: member,
          orderId,
          symbol,
          side,
          orderType: "limit",
          tif: r.pick(["GTC", "GTC", "GTC", "IOC", "FOK", "POST_ONLY"] as const),
          price,
          quantity,
        });
      else if (kind < 0.85)
        commands.push({
          type: "spot.place",
          memberId: member,
          orderId,
          symbol,
          side,
          orderType: "market",
          tif: "IOC",
          ...(side === "buy" && r.next() < 0.5 ? { money: (mid * 0.01).toFixed(2) } : { quantity }),
        });
      else {
        const stop = (mid * (side === "buy" ? 1.01 + r.next() * 0.02 : 0.97 + r.next() * 0.02)).toFixed(1);
        commands.push({
          type: "spot.place",
          memberId: member,
          orderId,
          symbol,
          side,
          orderType: "limit",
          tif: "GTC",
          price,
          quantity,
          ...(side === "buy" ? { stopLossPrice: stop } : { stopProfitPrice: stop }),
        });
      }
    }
  }
  return commands;
}

describe("the exchange core", () => {
  it.each([1, 2, 3, 42])("reaches one state hash three ways: live, snapshot + tail, full replay of the accepted commands (seed %i)", (seed) => {
    const commands = commandStream(seed, 3_000);
    const live = freshCore();
    const accepted: Command[] = [];
    let snapshot: CoreSnapshot | null = null;
    let refusals = 0;
    for (const [i, command] of commands.entries()) {
      const outcome = live.apply(command);
      if (outcome.seq === null) refusals++;
      else {
        expect(outcome.seq).toBe(accepted.length + 1);
        accepted.push(command);
      }
      // The snapshot travels as text, as it will on disk.
      if (i === 2_000) snapshot = JSON.parse(JSON.stringify(live.snapshot())) as CoreSnapshot;
    }
    expect(refusals).toBeGreaterThan(50);
    expect(accepted.length).toBeGreaterThan(1_000);
    expect(live.ledger.checkInvariants()).toEqual([]);
    for (const m of live.markets.values()) expect(m.checkInvariants()).toEqual([]);

    // Full replay of only the accepted commands, from the same start: every one is accepted again, with its number.
    const replayed = freshCore();
    for (const [i, command] of accepted.entries()) expect(replayed.apply(command).seq).toBe(i + 1);
    expect(replayed.stateHash()).toBe(live.stateHash());

    // Snapshot + the accepted commands after it.
    const restored = ExchangeCore.fromSnapshot(snapshot!, "t");
    expect(restored.lastSeq).toBe(snapshot!.seq);
    for (const command of accepted.slice(snapshot!.seq)) expect(restored.apply(command).seq).not.toBeNull();
    expect(restored.stateHash()).toBe(live.stateHash());
    expect(restored.snapshot()).toEqual(live.snapshot());
  });

  it("keeps a hold no order carries in its snapshot, named like an order's (the snapshot checks, not assumes, that each is folded)", () => {
    const core = freshCore();
    core.apply({ type: "ledger.deposit", id: "d1", memberId: "1", asset: "USDT", kind: "spot", amount: "100000" });
    core.apply({
      type: "spot.place",
      memberId: "1",
      orderId: "a",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: "60000",
      quantity: "0.5",
    });
    expect(core.ledger.hold("hold:stray", { owner: "1", kind: "spot", asset: "USDT" }, 5n).code).toBe("OK");
    const restored = ExchangeCore.fromSnapshot(JSON.parse(JSON.stringify(core.snapshot())) as CoreSnapshot, "t");
    expect(restored.ledger.holdRemaining("hold:stray")).toBe(5n);
    expect(restored.ledger.holdRemaining("hold:a")).toBe(core.ledger.holdRemaining("hold:a"));
    expect(restored.stateHash()).toBe(core.stateHash());
  });

  it("numbers only the commands that change something, and names settlement transfers by that number", () => {
    const core = freshCore();
    expect(core.apply({ type: "ledger.deposit", id: "d1", memberId: "1", asset: "BTC", kind: "spot", amount: "1" }).seq).toBe(1);
    expect(core.apply({ type: "ledger.deposit", id: "d2", memberId: "2", asset: "USDT", kind: "spot", amount: "100000" }).seq).toBe(2);
    expect(core.apply({ type: "ledger.deposit", id: "d3", memberId: "2", asset: "DOGE", kind: "spot", amount: "1" })).toEqual({
      code: "ORDER_BAD_COMMAND",
      seq: null,
    });
    expect(core.apply({ type: "spot.cancel", memberId: "1", orderId: "nope" })).toEqual({ code: "ORDER_UNKNOWN", seq: null });
    expect(
      core.apply({
        type: "spot.place",
        memberId: "1",
        orderId: "a",
        symbol: "BTC/USDT",
        side: "sell",
        orderType: "limit",
        tif: "GTC",
        price: "60000",
        quantity: "2",
      }).code,
    ).toBe("RISK_INSUFFICIENT_AVAILABLE");
    expect(core.lastSeq).toBe(2);
    expect(
      core.apply({
        type: "spot.place",
        memberId: "1",
        orderId: "a",
        symbol: "BTC/USDT",
        side: "sell",
        orderType: "limit",
        tif: "GTC",
        price: "60000",
        quantity: "0.5",
      }).seq,
    ).toBe(3);
    const taker = core.apply({
      type: "spot.place",
      memberId: "2",
      orderId: "b",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: "60000",
      quantity: "0.5",
    });
    expect(taker.seq).toBe(4);
    const settlement = transfersOf(taker)
      .filter((t) => t.phase === "post")
      .map((t) => t.id);
    expect(settlement.length).toBeGreaterThan(0);
    for (const id of settlement) expect(id).toMatch(/^t4\.[0-9a-z]+$/);
    // Another member cannot cancel it, and is told nothing about it.
    expect(core.apply({ type: "market.halt", symbol: "BTC/USDT", halted: true }).seq).toBe(5);
    expect(
      core.apply({
        type: "spot.place",
        memberId: "2",
        orderId: "c",
        symbol: "BTC/USDT",
        side: "buy",
        orderType: "limit",
        tif: "GTC",
        price: "1",
        quantity: "1",
      }).code,
    ).toBe("MARKET_HALTED");
  });

  it("lists a market only with rules it can trade exactly, and changes rules only to such", () => {
    const core = freshCore();
    const link = {
      type: "market.list",
      symbol: "LINK/USDT",
      base: "LINK",
      quote: "USDT",
      priceScale: 3,
      amountScale: 2,
      tickSize: "0.001",
      lotSize: "0.01",
      minQuantity: "0.1",
      makerFeeBps: 10,
      takerFeeBps: 10,
    } as const;
    expect(core.apply(link)).toMatchObject({ code: "ASSET_UNKNOWN", seq: null });
    expect(core.apply({ ...link, newBaseScale: 1 })).toMatchObject({ code: "BAD_RULES", problem: expect.stringMatching(/base asset's scale/) });
    expect(core.apply({ ...link, newBaseScale: 8, tickSize: "0.0001" })).toMatchObject({
      code: "BAD_RULES",
      problem: expect.stringMatching(/tick size has more decimals/),
    });
    expect(core.apply({ ...link, newBaseScale: 8, minQuantity: "0.015" })).toMatchObject({ code: "BAD_RULES" });
    expect(core.assetScales.has("LINK")).toBe(false);
    expect(core.apply({ ...link, newBaseScale: 8 }).seq).toBe(1);
    expect(core.apply({ ...link, newBaseScale: 8 })).toEqual({ code: "MARKET_EXISTS", seq: null });
    expect(core.apply({ type: "market.rules", symbol: "LINK/USDT", minQuantity: "0.001" })).toMatchObject({ code: "BAD_RULES" });
    expect(core.apply({ type: "market.rules", symbol: "LINK/USDT", makerFeeBps: 2_000 })).toMatchObject({ code: "BAD_RULES" });
    expect(core.apply({ type: "market.rules", symbol: "NOPE/USDT", makerFeeBps: 1 })).toEqual({ code: "MARKET_UNKNOWN", seq: null });
    expect(core.apply({ type: "market.rules", symbol: "LINK/USDT", minQuantity: "1", takerFeeBps: 0 }).seq).toBe(2);
    expect(core.markets.get("LINK/USDT")!.config).toMatchObject({ minQuantity: 100n, takerFeeBps: 0n, makerFeeBps: 10n });
  });
});
