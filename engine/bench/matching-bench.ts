import { performance } from "node:perf_hooks";
import type { CoreEvent } from "../core/exchange/events";
import { OrderBook as TheirBook, SelfTradePreventionMode, Side as TheirSide } from "nodejs-order-book";
import { Ledger, type AccountRef } from "../core/ledger/ledger";
import { OrderBook, type PlaceCommand } from "../core/matching/order-book";
import { SpotMarket } from "../core/spot/spot-market";

/**
 * Matching core throughput, exchange-core style: one book, 1,000 accounts, a stream of GTC and IOC
 * orders, cancels and moves around a mid price. The stream is generated first (seeded), then
 * timed. The same stream also goes through the npm package `nodejs-order-book` (numbers instead of
 * bigints, self-trade prevention "expire taker") for a ratio, and — places and cancels only —
 * through our whole spot core (risk holds, matching, settlement with fees in the ledger).
 * Prints figures; asserts nothing. `BENCH_OPS` sets the stream length (1,000,000; the whole spot
 * core gets the first fifth of it), `BENCH_ROUNDS` the rounds (3); `BENCH_SPOT_ONLY=1` runs only the
 * whole spot core (to profile it).
 */
/** A move keeps its id in the book alone; through the spot core it is a cancel and a new order (`newId`, made with the stream, not timed). */
type Op =
  | { kind: "place"; cmd: PlaceCommand }
  | { kind: "cancel"; id: string; member: string }
  | { kind: "move"; id: string; member: string; side: "buy" | "sell"; price: bigint; newId: string };

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

function stream(count: number, seed = 42): Op[] {
  const random = rng(seed);
  const ops: Op[] = [];
  const live: Array<{ id: string; member: string; side: "buy" | "sell" }> = [];
  const mid = 100_000;
  for (let i = 0; i < count; i++) {
    const r = random();
    const member = `m${Math.floor(random() * 1_000)}`;
    // Like exchange-core's benchmark, the book is kept near a steady size (about 2,000 orders).
    const cancelShare = live.length > 2_000 ? 0.45 : 0.12;
    if (r < cancelShare && live.length > 0) {
      const pick = Math.floor(random() * live.length);
      const target = live[pick]!;
      live[pick] = live[live.length - 1]!;
      live.pop();
      ops.push({ kind: "cancel", id: target.id, member: target.member });
    } else if (r < cancelShare + 0.1 && live.length > 0) {
      const target = live[Math.floor(random() * live.length)]!;
      ops.push({
        kind: "move",
        id: target.id,
        member: target.member,
        side: target.side,
        price: BigInt(mid + Math.floor((random() - 0.5) * 200)),
        newId: `${target.id}.m${i}`,
      });
    } else {
      const side = random() < 0.5 ? "buy" : "sell";
      const ioc = random() < 0.3;
      const offset = Math.floor(random() * 100) * (side === "buy" ? -1 : 1) + (ioc ? (side === "buy" ? 60 : -60) : 0);
      const id = `o${i}`;
      ops.push({
        kind: "place",
        cmd: {
          id,
          memberId: member,
          side,
          type: "limit",
          price: BigInt(mid + offset),
          quantity: BigInt(1 + Math.floor(random() * 100)),
          tif: ioc ? "IOC" : "GTC",
        },
      });
      if (!ioc) live.push({ id, member, side });
    }
  }
  return ops;
}

interface Run {
  seconds: number;
  trades: number;
  resting: number;
}

function runOurs(ops: Op[]): Run {
  const book = new OrderBook();
  let trades = 0;
  const t0 = performance.now();
  for (const op of ops) {
    const events = op.kind === "place" ? book.place(op.cmd) : op.kind === "cancel" ? book.cancel(op.id, op.member) : book.move(op.id, op.member, op.price);
    for (const e of events) if (e.type === "trade") trades++;
  }
  return { seconds: (performance.now() - t0) / 1000, trades, resting: book.size };
}

/** The same stream for nodejs-order-book, converted before timing (numbers, its own option objects). */
type TheirOp =
  | {
      kind: 0;
      options: { id: string; side: TheirSide; size: number; price: number; timeInForce: "GTC" | "IOC"; accountId: string; stpMode: SelfTradePreventionMode };
    }
  | { kind: 1; id: string }
  | { kind: 2; id: string; price: number };

function toTheirs(ops: Op[]): TheirOp[] {
  return ops.map((op): TheirOp => {
    if (op.kind === "cancel") return { kind: 1, id: op.id };
    if (op.kind === "move") return { kind: 2, id: op.id, price: Number(op.price) };
    const c = op.cmd;
    return {
      kind: 0,
      options: {
        id: c.id,
        side: c.side === "buy" ? TheirSide.BUY : TheirSide.SELL,
        size: Number(c.quantity),
        price: Number(c.price),
        timeInForce: c.tif === "IOC" ? "IOC" : "GTC",
        accountId: c.memberId,
        stpMode: SelfTradePreventionMode.EXPIRE_TAKER,
      },
    };
  });
}

function runTheirs(ops: TheirOp[]): Run {
  const book = new TheirBook();
  let trades = 0;
  const t0 = performance.now();
  for (const op of ops) {
    if (op.kind === 0) {
      const r = book.limit(op.options as never);
      trades += r.done.length; // orders it completed (its answer lists orders, not trades): read like ours
    } else if (op.kind === 1) book.cancel(op.id);
    else book.modify(op.id, { price: op.price });
  }
  // Their book has no count of resting orders: the depth's sizes stand for it.
  const [asks, bids] = book.depth();
  return { seconds: (performance.now() - t0) / 1000, trades, resting: asks.length + bids.length };
}

/** Places and cancels through the whole spot core (a move becomes a cancel and a new order). */
function runSpot(ops: Op[]): Run {
  const ledger = new Ledger();
  const config = {
    symbol: "BTC_USDT",
    base: "BTC",
    quote: "USDT",
    priceScale: 2,
    amountScale: 4,
    baseAssetScale: 8,
    quoteAssetScale: 8,
    tickSize: 1n,
    lotSize: 1n,
    minQuantity: 1n,
    makerFeeBps: 10n,
    takerFeeBps: 20n,
  };
  for (let m = 0; m < 1_000; m++) {
    for (const asset of ["BTC", "USDT"]) ledger.deposit(`fund:m${m}:${asset}`, { owner: `m${m}`, kind: "spot", asset } satisfies AccountRef, 10n ** 30n);
  }
  const market = new SpotMarket(config, ledger);
  let trades = 0;
  const t0 = performance.now();
  for (const op of ops) {
    if (op.kind === "place") {
      const c = op.cmd;
      trades += tradeCount(
        market.place({ orderId: c.id, memberId: c.memberId, side: c.side, type: "limit", price: c.price, quantity: c.quantity, tif: c.tif }).events,
      );
    } else {
      const remaining = market.book.order(op.id)?.remaining;
      const cancelled = market.cancel(op.id, op.member);
      if (op.kind === "move" && cancelled.code === "OK" && remaining !== undefined) {
        trades += tradeCount(
          market.place({ orderId: op.newId, memberId: op.member, side: op.side, type: "limit", price: op.price, quantity: remaining, tif: "GTC" }).events,
        );
      }
    }
  }
  return { seconds: (performance.now() - t0) / 1000, trades, resting: market.book.size };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en");
const count = Number(process.env.BENCH_OPS ?? 1_000_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const ops = stream(count);
const theirs = toTheirs(ops);
const spotOps = ops.slice(0, Math.ceil(count / 5));

if (process.env.BENCH_SPOT_ONLY === "1") {
  // For profiling the whole spot core alone (node --cpu-prof): its rounds and nothing else.
  runSpot(stream(100_000, 7));
  const runs = Array.from({ length: rounds }, () => runSpot(spotOps));
  console.log(`whole spot core, ${fmt(spotOps.length)} ops: ${fmt(median(runs.map((r) => spotOps.length / r.seconds)))} ops/s`);
  process.exit(0);
}
// Warm up the JIT on another stream, then alternate the books so that noise hits both alike.
const warm = stream(100_000, 7);
runOurs(warm);
runTheirs(toTheirs(warm));
runSpot(warm);
const ours: Run[] = [];
const their: Run[] = [];
const spot: Run[] = [];
for (let i = 0; i < rounds; i++) {
  ours.push(runOurs(ops));
  their.push(runTheirs(theirs));
  spot.push(runSpot(spotOps));
}
const rate = (runs: Run[], n = count) => median(runs.map((r) => n / r.seconds));
const best = (runs: Run[], n = count) => Math.max(...runs.map((r) => n / r.seconds));
console.log(
  `matching core: ${fmt(count)} ops (GTC 70 % and IOC 30 % of places, cancels, moves), 1,000 accounts, one book of ~2,000 orders; median of ${rounds} rounds`,
);
console.log(
  `  ours (engine/core/matching):   ${fmt(rate(ours))} ops/s (best ${fmt(best(ours))}); ${fmt(ours[0]!.trades)} trades; ${fmt(ours[0]!.resting)} orders resting at the end`,
);
console.log(`  nodejs-order-book 10.x:         ${fmt(rate(their))} ops/s (best ${fmt(best(their))})`);
console.log(`  ratio ours / theirs: ${(rate(ours) / rate(their)).toFixed(2)}`);
console.log(
  `  whole spot core (holds, matching, settlement with fees in the ledger), first ${fmt(spotOps.length)} ops: ${fmt(rate(spot, spotOps.length))} ops/s (best ${fmt(best(spot, spotOps.length))}; target ≥ 1,000,000)`,
);

function tradeCount(events: readonly CoreEvent[]): number {
  let n = 0;
  for (const e of events) if (e.type === "trade") n++;
  return n;
}
