import type { Side, TimeInForce } from "../matching/order-book";
import { fires, StopBook, triggerDirection, type FiredStop, type StopKind } from "../spot/stop-orders";
import type { ContractAction } from "./contract-market";

/**
 * A contract's conditional orders (issue 30, decision 048): stop orders and a position's take
 * profit and stop loss, waiting off the book for the mark or the last trade price to reach them.
 * They hold nothing while they wait (the order they become holds at the moment it is placed, and
 * is refused then if the member cannot cover it), so a member's conditional orders never lock
 * margin they may want for something else.
 *
 * Each trigger source has its own trigger book (spot's, `core/spot/stop-orders.ts`): a price move
 * pops exactly the triggers it crossed. A stop order has one trigger on the side of the price
 * where it was placed (above: it fires when the price rises to it; below: when it falls); a
 * position's take profit and stop loss are one entry with two triggers, whichever the price
 * reaches first fires and the other is dropped.
 */
export type TriggerSource = "mark" | "last";
export const TRIGGER_SOURCES: readonly TriggerSource[] = ["mark", "last"];

/** A member's waiting stop orders per contract, at most (a position's take profit and stop loss not counted). */
export const MAX_STOPS_PER_MEMBER = 10;

export interface WaitingStop {
  id: string;
  memberId: string;
  side: Side;
  action: ContractAction;
  type: "limit" | "market";
  /** A limit's price once it fires; null for a market order. */
  price: bigint | null;
  /** Contracts; null for a position's take profit and stop loss, which close the whole position. */
  qty: bigint | null;
  tif: TimeInForce;
  triggerBy: TriggerSource;
  profitPrice: bigint | null;
  lossPrice: bigint | null;
}

/** A waiting stop as the snapshot keeps it. */
export interface WaitingStopState {
  id: string;
  memberId: string;
  side: Side;
  action: ContractAction;
  type: "limit" | "market";
  price: string | null;
  qty: string | null;
  tif: TimeInForce;
  triggerBy: TriggerSource;
  profitPrice: string | null;
  lossPrice: string | null;
}

export interface Fired {
  stop: WaitingStop;
  kind: StopKind;
  price: bigint;
}

/**
 * Which trigger of a stop order on `side` fires when the price moves from `reference` to
 * `trigger`: the one on that side of the price (null when they are equal: it would fire at once).
 */
export function stopKindFor(side: Side, trigger: bigint, reference: bigint): StopKind | null {
  if (trigger === reference) return null;
  const direction = trigger > reference ? "rise" : "fall";
  return triggerDirection(side, "profit") === direction ? "profit" : "loss";
}

/** Whether a trigger of `kind` for `side` at `price` would fire at `reference` already. */
export function firesAt(side: Side, kind: StopKind, price: bigint, reference: bigint): boolean {
  return fires(triggerDirection(side, kind), price, reference);
}

export class ContractStops {
  private readonly books: Record<TriggerSource, StopBook> = { mark: new StopBook(), last: new StopBook() };
  /** In placement order (their priority within a trigger price, and the snapshot's order). */
  private readonly waiting = new Map<string, WaitingStop>();
  /** Each member's waiting stop orders (their take profit and stop loss apart). */
  private readonly counts = new Map<string, number>();
  /** Each member's waiting ids, in placement order (a liquidation or a one-key close takes them without a scan of all). */
  private readonly byMember = new Map<string, Set<string>>();
  /** Each member's take profit and stop loss on their position: its entry's id. */
  private readonly positionStops = new Map<string, string>();

  get size(): number {
    return this.waiting.size;
  }

  get(id: string): Readonly<WaitingStop> | undefined {
    return this.waiting.get(id);
  }

  countOf(memberId: string): number {
    return this.counts.get(memberId) ?? 0;
  }

  /** A member's take profit and stop loss on their position, if set. */
  positionStopOf(memberId: string): Readonly<WaitingStop> | undefined {
    const id = this.positionStops.get(memberId);
    return id === undefined ? undefined : this.waiting.get(id);
  }

  /** A member's waiting stops, in placement order. */
  *of(memberId: string): IterableIterator<Readonly<WaitingStop>> {
    for (const id of this.byMember.get(memberId) ?? []) yield this.waiting.get(id)!;
  }

  all(): IterableIterator<Readonly<WaitingStop>> {
    return this.waiting.values();
  }

  add(stop: WaitingStop): void {
    if (this.waiting.has(stop.id)) throw new Error(`stop ${stop.id} is already waiting`);
    this.books[stop.triggerBy].add({
      id: stop.id,
      side: stop.side,
      ...(stop.profitPrice !== null && { profitPrice: stop.profitPrice }),
      ...(stop.lossPrice !== null && { lossPrice: stop.lossPrice }),
    });
    this.waiting.set(stop.id, stop);
    let mine = this.byMember.get(stop.memberId);
    if (!mine) this.byMember.set(stop.memberId, (mine = new Set()));
    mine.add(stop.id);
    if (stop.qty === null) this.positionStops.set(stop.memberId, stop.id);
    else this.counts.set(stop.memberId, this.countOf(stop.memberId) + 1);
  }

  /** Takes a waiting stop out (cancelled, replaced, its position gone); undefined if it was not waiting. */
  remove(id: string): WaitingStop | undefined {
    const stop = this.waiting.get(id);
    if (!stop) return undefined;
    this.books[stop.triggerBy].remove(id);
    this.forget(stop);
    return stop;
  }

  /** Removes and returns the stops a price of `source` fires, in the trigger book's order. */
  fire(source: TriggerSource, price: bigint): Fired[] {
    if (this.books[source].size === 0) return [];
    return this.books[source].fire(price).map((f: FiredStop) => {
      const stop = this.waiting.get(f.id)!;
      this.forget(stop);
      return { stop, kind: f.kind, price: f.stopPrice };
    });
  }

  private forget(stop: WaitingStop): void {
    this.waiting.delete(stop.id);
    const mine = this.byMember.get(stop.memberId)!;
    mine.delete(stop.id);
    if (mine.size === 0) this.byMember.delete(stop.memberId);
    if (stop.qty === null) {
      if (this.positionStops.get(stop.memberId) === stop.id) this.positionStops.delete(stop.memberId);
      return;
    }
    const left = this.countOf(stop.memberId) - 1;
    if (left > 0) this.counts.set(stop.memberId, left);
    else this.counts.delete(stop.memberId);
  }

  snapshot(): WaitingStopState[] {
    return [...this.waiting.values()].map((s) => ({
      id: s.id,
      memberId: s.memberId,
      side: s.side,
      action: s.action,
      type: s.type,
      price: s.price?.toString() ?? null,
      qty: s.qty?.toString() ?? null,
      tif: s.tif,
      triggerBy: s.triggerBy,
      profitPrice: s.profitPrice?.toString() ?? null,
      lossPrice: s.lossPrice?.toString() ?? null,
    }));
  }

  restore(states: readonly WaitingStopState[]): void {
    const big = (v: string | null) => (v === null ? null : BigInt(v));
    for (const s of states) this.add({ ...s, price: big(s.price), qty: big(s.qty), profitPrice: big(s.profitPrice), lossPrice: big(s.lossPrice) });
  }

  /** The stops as one text, in placement order (the market's state hash). */
  digest(): string {
    let text = "";
    for (const s of this.waiting.values())
      text += `stop ${s.id}/${s.memberId}/${s.side}/${s.action}/${s.type}/${s.price ?? "-"}/${s.qty ?? "-"}/${s.tif}/${s.triggerBy}/${s.profitPrice ?? "-"}/${s.lossPrice ?? "-"};`;
    return text;
  }

  /** Both trigger books sound, nothing waiting that the current prices fire, the counts right. */
  checkInvariants(prices: Record<TriggerSource, bigint | null>): string[] {
    const problems: string[] = [];
    for (const source of TRIGGER_SOURCES) problems.push(...this.books[source].checkInvariants(prices[source] ?? undefined).map((p) => `${source} stops: ${p}`));
    const counts = new Map<string, number>();
    for (const s of this.waiting.values()) if (s.qty !== null) counts.set(s.memberId, (counts.get(s.memberId) ?? 0) + 1);
    for (const [memberId, n] of counts)
      if (this.counts.get(memberId) !== n) problems.push(`${memberId}: ${this.counts.get(memberId)} stops counted, ${n} waiting`);
    if (this.books.mark.size + this.books.last.size !== this.waiting.size)
      problems.push(`trigger books hold ${this.books.mark.size + this.books.last.size} stops, ${this.waiting.size} are waiting`);
    return problems;
  }
}
