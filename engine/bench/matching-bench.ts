import { performance } from "node:perf_hooks";
import { OrderBook, type PlaceCommand } from "../core/matching/order-book";

/**
 * Matching core throughput, exchange-core style: one book, 1,000 accounts, a stream of GTC and IOC
 * orders, cancels and moves around a mid price. The stream is generated first (seeded), then
 * timed. Prints figures; asserts nothing.
 */
type Op = { kind: "place"; cmd: PlaceCommand } | { kind: "cancel"; id: string; member: string } | { kind: "move"; id: string; member: string; price: bigint };

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
  const live: Array<{ id: string; member: string }> = [];
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
      ops.push({ kind: "move", id: target.id, member: target.member, price: BigInt(mid + Math.floor((random() - 0.5) * 200)) });
    } else {
      const side = random() < 0.5 ? "buy" : "sell";
      const ioc = random() < 0.3;
      const offset = Math.floor(random() * 100) * (side === "buy" ? -1 : 1) + (ioc ? (side === "buy" ? 60 : -60) : 0);
      const id = `o${i}`;
      ops.push({ kind: "place", cmd: { id, memberId: member, side, type: "limit", price: BigInt(mid + offset), quantity: BigInt(1 + Math.floor(random() * 100)), tif: ioc ? "IOC" : "GTC" } });
      if (!ioc) live.push({ id, member });
    }
  }
  return ops;
}

function run(ops: Op[]): { seconds: number; trades: number; resting: number } {
  const book = new OrderBook();
  let trades = 0;
  const t0 = performance.now();
  for (const op of ops) {
    const events = op.kind === "place" ? book.place(op.cmd) : op.kind === "cancel" ? book.cancel(op.id, op.member) : book.move(op.id, op.member, op.price);
    for (const e of events) if (e.type === "trade") trades++;
  }
  return { seconds: (performance.now() - t0) / 1000, trades, resting: book.size };
}

const count = Number(process.env.BENCH_OPS ?? 1_000_000);
const ops = stream(count);
run(stream(100_000, 7)); // warm up the JIT
const result = run(ops);
console.log(`matching core: ${count.toLocaleString("en")} ops (GTC 70 % and IOC 30 % of places, cancels, moves), 1,000 accounts, one book of ~2,000 orders`);
console.log(`  ${Math.round(count / result.seconds).toLocaleString("en")} ops/s; ${result.trades.toLocaleString("en")} trades; ${result.resting.toLocaleString("en")} orders resting at the end`);
