import { performance } from "node:perf_hooks";
import { toMinor } from "../../protocol/money";
import type { Command } from "../core/exchange/commands";
import { ExchangeCore } from "../core/exchange/exchange-core";
import type { PerpetualConfig } from "../core/contracts/perpetual";

/**
 * Perpetual contracts in the core (issue 30; decision 046), two ratios measured in one run:
 * - contract orders ÷ spot orders: the same stream of limit and IOC orders and cancels from 1,000
 *   members, once as spot orders (hold, match, settle) and once as contract orders (margin, fee
 *   and position per fill), through `ExchangeCore.apply` (target ≥ 0.8);
 * - a mark tick with 100,000 open positions ÷ with 1,000 (target ≤ 3): a tick samples the book,
 *   moves the mark and checks only the positions it reached.
 * `BENCH_CONTRACT_ORDERS` sets the stream (200,000), `BENCH_POSITIONS` the large book (100,000).
 */
const ORDERS = Number(process.env.BENCH_CONTRACT_ORDERS ?? (process.env.BENCH_QUICK ? 50_000 : 200_000));
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? (process.env.BENCH_QUICK ? 20_000 : 100_000));
const MEMBERS = 1_000;

const rate = (percent: string) => toMinor(percent, 6);
const CONTRACT: PerpetualConfig = {
  symbol: "BTC/USDT",
  base: "BTC",
  quote: "USDT",
  settleAsset: "USDT",
  spec: { kind: "linear", priceScale: 1, settleScale: 8, multiplier: 1n, multiplierScale: 3 },
  tickSize: 1n,
  minQty: 1n,
  maxQty: 1_000_000n,
  makerFeeBps: 2,
  takerFeeBps: 5,
  tiers: [
    { maxValue: toMinor("1000000", 8), maxLeverage: 100, mmr: rate("0.4") },
    { maxValue: toMinor("100000000", 8), maxLeverage: 20, mmr: rate("1") },
  ],
  priceBand: rate("5"),
  defaultLeverage: 20,
  impactQty: 100n,
};

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

function freshCore(): ExchangeCore {
  const core = new ExchangeCore("b");
  core.listAsset("USDT", 8);
  core.listAsset("BTC", 8);
  core.openMarket({
    symbol: "BTC/USDT",
    base: "BTC",
    quote: "USDT",
    priceScale: 1,
    amountScale: 3,
    baseAssetScale: 8,
    quoteAssetScale: 8,
    tickSize: 1n,
    lotSize: 1n,
    minQuantity: 1n,
    makerFeeBps: 2n,
    takerFeeBps: 5n,
  });
  core.openContract(structuredClone(CONTRACT));
  return core;
}

/** One stream, two forms: the i-th order is the same price, side and size in both. */
function streams(count: number): { spot: Command[]; contract: Command[] } {
  const random = rng(7);
  const spot: Command[] = [];
  const contract: Command[] = [];
  const live: Array<{ id: string; member: string }> = [];
  for (let i = 0; i < count; i++) {
    const member = String(1 + Math.floor(random() * MEMBERS));
    if (random() < (live.length > 2_000 ? 0.45 : 0.12) && live.length) {
      const pick = Math.floor(random() * live.length);
      const target = live[pick]!;
      live[pick] = live[live.length - 1]!;
      live.pop();
      spot.push({ type: "spot.cancel", memberId: target.member, orderId: target.id });
      contract.push({ type: "contract.cancel", memberId: target.member, orderId: target.id });
      continue;
    }
    // Members are long-side (odd) or short-side (even) for good: one-way positions open both ways at once.
    const side = Number(member) % 2 === 1 ? "buy" : "sell";
    const price = String(50_000 + Math.floor((random() - 0.5) * 200) + (side === "buy" ? -30 : 30));
    const qty = 1 + Math.floor(random() * 5);
    const tif = random() < 0.8 ? "GTC" : "IOC";
    const id = `o${i}`;
    if (tif === "GTC") live.push({ id, member });
    spot.push({ type: "spot.place", memberId: member, orderId: id, symbol: "BTC/USDT", side, orderType: "limit", tif, price, quantity: String(qty / 1000) });
    contract.push({
      type: "contract.place",
      memberId: member,
      orderId: id,
      symbol: "BTC/USDT",
      side,
      action: "open",
      orderType: "limit",
      tif,
      price,
      quantity: String(qty),
    });
  }
  return { spot, contract };
}

function fund(core: ExchangeCore, members: number) {
  for (let m = 1; m <= members; m++) {
    core.apply({ type: "ledger.deposit", id: `u${m}`, memberId: String(m), asset: "USDT", kind: "spot", amount: "100000000" });
    core.apply({ type: "ledger.deposit", id: `b${m}`, memberId: String(m), asset: "BTC", kind: "spot", amount: "10000" });
    core.apply({ type: "ledger.deposit", id: `c${m}`, memberId: String(m), asset: "USDT", kind: "contract", amount: "100000000" });
  }
}

function timeStream(core: ExchangeCore, commands: Command[]): { perSecond: number; accepted: number } {
  let accepted = 0;
  const t0 = performance.now();
  for (const command of commands) if (core.apply(command).seq !== null) accepted++;
  return { perSecond: commands.length / ((performance.now() - t0) / 1000), accepted };
}

/** A core with `count` open positions (half long, half short, against each other), then the time of a tick. */
function tickCost(count: number): { microseconds: number; positions: number } {
  const core = freshCore();
  const at = Date.UTC(2026, 10, 1);
  core.apply({ type: "contract.tick", at, prices: [["BTC/USDT", "50000"]] });
  const pairs = count / 2;
  for (let i = 1; i <= pairs; i++) {
    const long = `L${i}`;
    const short = `S${i}`;
    for (const m of [long, short]) core.apply({ type: "ledger.deposit", id: `d${m}`, memberId: m, asset: "USDT", kind: "contract", amount: "100000" });
    // Leverages spread the liquidation prices over a wide band, as on a real book.
    const leverage = 2 + (i % 50);
    for (const m of [long, short]) core.apply({ type: "contract.leverage", memberId: m, symbol: "BTC/USDT", leverage });
    core.apply({
      type: "contract.place",
      memberId: short,
      orderId: `s${i}`,
      symbol: "BTC/USDT",
      side: "sell",
      action: "open",
      orderType: "limit",
      tif: "GTC",
      price: "50000",
      quantity: "10",
    });
    core.apply({
      type: "contract.place",
      memberId: long,
      orderId: `l${i}`,
      symbol: "BTC/USDT",
      side: "buy",
      action: "open",
      orderType: "limit",
      tif: "IOC",
      price: "50000",
      quantity: "10",
    });
  }
  const positions = [...core.contracts.get("BTC/USDT")!.market.positions()].length;
  // Ticks a second apart around the price (no funding time passes): the mark moves, nobody is reached.
  const ticks = 2_000;
  const t0 = performance.now();
  for (let i = 0; i < ticks; i++) core.apply({ type: "contract.tick", at: at + 1_000 * (i + 1), prices: [["BTC/USDT", String(50_000 + (i % 10) - 5)]] });
  return { microseconds: ((performance.now() - t0) * 1000) / ticks, positions };
}

const { spot, contract } = streams(ORDERS);
const spotCore = freshCore();
fund(spotCore, MEMBERS);
const contractCore = freshCore();
fund(contractCore, MEMBERS);
contractCore.apply({ type: "contract.tick", at: Date.UTC(2026, 10, 1), prices: [["BTC/USDT", "50000"]] });
// Warm both paths, then measure (the same stream, fresh cores).
timeStream(freshCoreWithFunds(), spot.slice(0, 20_000));
timeStream(freshCoreWithFunds(true), contract.slice(0, 20_000));
const s = timeStream(spotCore, spot);
const c = timeStream(contractCore, contract);
console.log(
  `contracts: ${ORDERS.toLocaleString("en")} orders and cancels from ${MEMBERS.toLocaleString("en")} members (accepted: spot ${s.accepted.toLocaleString("en")}, contracts ${c.accepted.toLocaleString("en")})`,
);
console.log(
  `  spot orders ${Math.round(s.perSecond).toLocaleString("en")}/s, contract orders ${Math.round(c.perSecond).toLocaleString("en")}/s: ratio ${(c.perSecond / s.perSecond).toFixed(2)} (target ≥ 0.8)`,
);
tickCost(1_000); // warm-up
const small = tickCost(1_000);
const large = tickCost(POSITIONS);
console.log(
  `  mark tick: ${small.microseconds.toFixed(1)} µs with ${small.positions.toLocaleString("en")} positions, ${large.microseconds.toFixed(1)} µs with ${large.positions.toLocaleString("en")}: ratio ${(large.microseconds / small.microseconds).toFixed(2)} (target ≤ 3)`,
);

function freshCoreWithFunds(ticked = false): ExchangeCore {
  const core = freshCore();
  fund(core, MEMBERS);
  if (ticked) core.apply({ type: "contract.tick", at: Date.UTC(2026, 10, 1), prices: [["BTC/USDT", "50000"]] });
  return core;
}
