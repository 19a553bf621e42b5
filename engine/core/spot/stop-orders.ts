import type { Side } from "../matching/order-book";

/**
 * The stop (plan) orders of one market, waiting off the book for the last trade price to reach
 * them (docs/decisions/009-stop-orders.md). Pure and synchronous, like the order book.
 *
 * A stop has a stop-profit price, a stop-loss price or both (one cancels the other: whichever the
 * price reaches first fires, the other is dropped). Each price is a trigger on one of two sides:
 * a "rise" trigger fires once the last price is at or above it, a "fall" trigger once it is at or
 * below it. For a sell, stop-profit rises and stop-loss falls; for a buy it is the reverse (buy
 * the dip, buy the breakout).
 *
 * Each side keeps price levels sorted with the next to fire at the array's end (as the order book
 * keeps its best level), so a price move pops exactly the triggers it crossed and never looks at
 * the rest. Within a level, stops fire in the order they were added.
 */
export type StopKind = "profit" | "loss";
export type TriggerDirection = "rise" | "fall";

/** Which way the price must move to fire a stop of this kind for this side. */
export function triggerDirection(side: Side, kind: StopKind): TriggerDirection {
  return (side === "sell") === (kind === "profit") ? "rise" : "fall";
}

/** Whether a last price fires a trigger at `price` moving in `direction`. */
export function fires(direction: TriggerDirection, price: bigint, last: bigint): boolean {
  return direction === "rise" ? last >= price : last <= price;
}

export interface StopEntry {
  id: string;
  side: Side;
  profitPrice?: bigint;
  lossPrice?: bigint;
}

export interface FiredStop {
  id: string;
  /** The trigger that fired. */
  kind: StopKind;
  stopPrice: bigint;
}

interface Level {
  price: bigint;
  ids: string[];
}

class TriggerSide {
  /** Levels farthest first, next to fire last: a rise side descends, a fall side ascends. */
  readonly levels: Level[] = [];
  private readonly byPrice = new Map<bigint, Level>();

  constructor(readonly direction: TriggerDirection) {}

  /** Whether `a` fires before `b` as the price moves this side's way. */
  private sooner(a: bigint, b: bigint): boolean {
    return this.direction === "rise" ? a < b : a > b;
  }

  /** Index of the first level that fires no sooner than `price` (levels are farthest first): its own level, or where it goes. */
  private search(price: bigint): number {
    let lo = 0;
    let hi = this.levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sooner(price, this.levels[mid]!.price)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(price: bigint, id: string): void {
    let level = this.byPrice.get(price);
    if (!level) {
      level = { price, ids: [] };
      this.byPrice.set(price, level);
      const at = this.search(price);
      if (at === this.levels.length) this.levels.push(level);
      else this.levels.splice(at, 0, level);
    }
    level.ids.push(id);
  }

  remove(price: bigint, id: string): boolean {
    const level = this.byPrice.get(price);
    if (!level) return false;
    const i = level.ids.indexOf(id);
    if (i === -1) return false;
    level.ids.splice(i, 1);
    if (level.ids.length === 0) {
      this.byPrice.delete(price);
      const last = this.levels.length - 1;
      if (this.levels[last] === level) this.levels.pop();
      else this.levels.splice(this.search(price), 1);
    }
    return true;
  }

  /** Removes and returns the levels a last price fires, in the order the move crossed them. */
  popFired(last: bigint): Level[] {
    const out: Level[] = [];
    for (let next = this.levels[this.levels.length - 1]; next && fires(this.direction, next.price, last); next = this.levels[this.levels.length - 1]) {
      this.levels.pop();
      this.byPrice.delete(next.price);
      out.push(next);
    }
    return out;
  }

  /** The price that fires next, if any. */
  next(): bigint | undefined {
    return this.levels[this.levels.length - 1]?.price;
  }

  count(): number {
    let n = 0;
    for (const level of this.levels) n += level.ids.length;
    return n;
  }

  checkInvariants(name: string): string[] {
    const problems: string[] = [];
    this.levels.forEach((level, i) => {
      if (level.ids.length === 0) problems.push(`${name} ${level.price}: empty level`);
      if (this.byPrice.get(level.price) !== level) problems.push(`${name} ${level.price}: not indexed`);
      const after = this.levels[i + 1];
      if (after && !this.sooner(after.price, level.price)) problems.push(`${name}: levels out of order at ${level.price}`);
    });
    if (this.byPrice.size !== this.levels.length) problems.push(`${name}: index has ${this.byPrice.size} levels, the list ${this.levels.length}`);
    return problems;
  }
}

export class StopBook {
  private readonly rise = new TriggerSide("rise");
  private readonly fall = new TriggerSide("fall");
  private readonly entries = new Map<string, StopEntry>();

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  get(id: string): StopEntry | undefined {
    return this.entries.get(id);
  }

  /** Adds a stop behind those added before it at the same trigger prices. */
  add(entry: StopEntry): void {
    if (this.entries.has(entry.id)) throw new Error(`stop ${entry.id} is already waiting`);
    if (entry.profitPrice === undefined && entry.lossPrice === undefined) throw new Error(`stop ${entry.id} has no trigger`);
    this.entries.set(entry.id, { ...entry });
    if (entry.profitPrice !== undefined) this.sideOf(entry.side, "profit").add(entry.profitPrice, entry.id);
    if (entry.lossPrice !== undefined) this.sideOf(entry.side, "loss").add(entry.lossPrice, entry.id);
  }

  /** Takes a waiting stop out (a cancel); false if it is not waiting. */
  remove(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    if (entry.profitPrice !== undefined) this.sideOf(entry.side, "profit").remove(entry.profitPrice, id);
    if (entry.lossPrice !== undefined) this.sideOf(entry.side, "loss").remove(entry.lossPrice, id);
    return true;
  }

  /**
   * Removes and returns every stop the last price fires: rise triggers nearest first, then fall
   * triggers nearest first; within a price, in the order they were added. A stop whose two
   * triggers both fire (possible only if it was placed before any trade) fires once.
   */
  fire(last: bigint): FiredStop[] {
    const out: FiredStop[] = [];
    for (const side of [this.rise, this.fall]) {
      for (const level of side.popFired(last)) {
        for (const id of level.ids) {
          const entry = this.entries.get(id);
          if (!entry) continue; // its other trigger fired first in this same call
          this.entries.delete(id);
          const kind: StopKind = triggerDirection(entry.side, "profit") === side.direction ? "profit" : "loss";
          const other = kind === "profit" ? entry.lossPrice : entry.profitPrice;
          if (other !== undefined) this.sideOf(entry.side, kind === "profit" ? "loss" : "profit").remove(other, id);
          out.push({ id, kind, stopPrice: level.price });
        }
      }
    }
    return out;
  }

  /** The nearest trigger prices on each side (what the next move must reach). */
  next(): { rise?: bigint; fall?: bigint } {
    return { rise: this.rise.next(), fall: this.fall.next() };
  }

  /** Stops in no particular order (for listing and checks). */
  all(): IterableIterator<StopEntry> {
    return this.entries.values();
  }

  /**
   * Sorted, indexed, no empty level; every trigger belongs to a waiting stop and every waiting
   * stop's triggers are in place; with a last price, nothing left waiting would fire at it.
   */
  checkInvariants(last?: bigint): string[] {
    const problems = [...this.rise.checkInvariants("rise"), ...this.fall.checkInvariants("fall")];
    let triggers = 0;
    for (const entry of this.entries.values()) {
      for (const kind of ["profit", "loss"] as const) {
        const price = kind === "profit" ? entry.profitPrice : entry.lossPrice;
        if (price === undefined) continue;
        triggers++;
        const side = this.sideOf(entry.side, kind);
        if (!side.levels.some((l) => l.price === price && l.ids.includes(entry.id))) problems.push(`${entry.id}: ${kind} trigger at ${price} missing`);
        if (last !== undefined && fires(side.direction, price, last)) problems.push(`${entry.id}: ${kind} at ${price} should have fired at ${last}`);
      }
    }
    const counted = this.rise.count() + this.fall.count();
    if (counted !== triggers) problems.push(`sides hold ${counted} triggers, stops have ${triggers}`);
    return problems;
  }

  private sideOf(side: Side, kind: StopKind): TriggerSide {
    return triggerDirection(side, kind) === "rise" ? this.rise : this.fall;
  }
}
