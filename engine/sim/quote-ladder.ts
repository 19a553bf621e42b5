import type { Side } from "../core/matching/order-book";

/**
 * The book a simulated market maker keeps (pure): one quote on each price of a fixed grid, the
 * `levels` grid prices nearest the reference on each side. As the reference moves, only the quotes
 * that fall out of the band are cancelled and only the missing prices are placed, so a quiet
 * second writes nothing and the book never thins (the first simulator cancelled its oldest quotes
 * whatever their side, and once left 2 levels of asks).
 */
export interface LadderShape {
  /** Distance between two quoted prices: a multiple of the tick (minor units). */
  step: bigint;
  /** Quotes wanted per side. */
  levels: number;
  /** Quotes further out than this many grid steps from the best are cancelled (a margin above `levels`, so a move of a step or two cancels nothing deep). */
  keepLevels: number;
}

export interface Quote {
  side: Side;
  price: bigint;
}

export const LEVELS_PER_SIDE = 24;
const KEEP_MARGIN = 4;
const BASIS_POINT = 10_000n;

/** The grid of a market: about one basis point of its anchor price, and at least one tick. */
export function ladderShape(anchor: bigint, tick: bigint, levels = LEVELS_PER_SIDE): LadderShape {
  const basisPoint = (anchor / BASIS_POINT / tick) * tick;
  return { step: basisPoint > tick ? basisPoint : tick, levels, keepLevels: levels + KEEP_MARGIN };
}

/**
 * The best bid and ask the ladder quotes around `reference`: grid prices at least half a step
 * (and at least one minor unit) away from it, so the spread is one to two steps and never crossed.
 */
export function ladderTouch(reference: bigint, shape: LadderShape): { bid: bigint; ask: bigint } {
  const half = shape.step / 2n > 1n ? shape.step / 2n : 1n;
  const below = reference - half;
  const above = reference + half;
  const bid = below - mod(below, shape.step);
  const ask = mod(above, shape.step) === 0n ? above : above + shape.step - mod(above, shape.step);
  return { bid, ask };
}

/** The prices the ladder wants on each side, best first (positive prices only). */
export function ladderPrices(reference: bigint, shape: LadderShape): Record<Side, bigint[]> {
  const { bid, ask } = ladderTouch(reference, shape);
  const buy: bigint[] = [];
  const sell: bigint[] = [];
  for (let i = 0; i < shape.levels; i++) {
    const b = bid - BigInt(i) * shape.step;
    if (b > 0n) buy.push(b);
    sell.push(ask + BigInt(i) * shape.step);
  }
  return { buy, sell };
}

/**
 * What to change so that `resting` becomes the ladder around `reference`: quotes off the grid,
 * inside the touch (the reference moved past them), beyond the keep band, or a second quote on
 * one price are cancelled; every wanted price without a quote is placed (with its level, 0 = best).
 */
export function planRequote<Q extends Quote>(
  resting: readonly Q[],
  reference: bigint,
  shape: LadderShape,
): { cancel: Q[]; place: Array<Quote & { level: number }> } {
  const { bid, ask } = ladderTouch(reference, shape);
  const deepest = BigInt(shape.keepLevels - 1) * shape.step;
  const kept = { buy: new Set<bigint>(), sell: new Set<bigint>() };
  const cancel: Q[] = [];
  for (const q of resting) {
    const inBand = q.side === "buy" ? q.price <= bid && q.price >= bid - deepest : q.price >= ask && q.price <= ask + deepest;
    if (!inBand || mod(q.price, shape.step) !== 0n || kept[q.side].has(q.price)) cancel.push(q);
    else kept[q.side].add(q.price);
  }
  const wanted = ladderPrices(reference, shape);
  const place: Array<Quote & { level: number }> = [];
  for (const side of ["buy", "sell"] as const) {
    wanted[side].forEach((price, level) => {
      if (!kept[side].has(price)) place.push({ side, price, level });
    });
  }
  return { cancel, place };
}

function mod(a: bigint, m: bigint): bigint {
  return ((a % m) + m) % m;
}
