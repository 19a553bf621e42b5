import { fromMinor } from "../../protocol/money";
import type { CoreEvent } from "../core/exchange/events";
import type { SpotCode } from "../core/spot/spot-market";
import type { KEY_REUSED } from "../journal/idempotency";

/** A service answer: the core's code, or a key reused for a different request. */
export type SpotServiceCode = SpotCode | typeof KEY_REUSED;

/** What placing an order answers (and what a retry with its key gets back). */
export interface OrderAnswer {
  code: SpotServiceCode;
  orderId: string | null;
  status: "open" | "filled" | "cancelled" | "rejected" | "waiting";
  filled: string;
  trades: number;
}

/**
 * The answer to an accepted order, from its command's events: its state after them, what it
 * filled and in how many trades — as the taker, and as a maker when a stop it fired traded
 * against what of it rested (the same figure its row in the tables holds).
 */
export function placedAnswer(orderId: string, events: readonly CoreEvent[], amountScale: number): OrderAnswer {
  let status: OrderAnswer["status"] = "open";
  let filled = 0n;
  let trades = 0;
  for (const e of events) {
    if (e.type === "order.placed" && e.orderId === orderId && e.waiting) status = "waiting";
    // Its own trades (stops it fired trade in this command too, with others or against it).
    else if (e.type === "trade" && (e.takerOrderId === orderId || e.makerOrderId === orderId)) {
      filled += e.quantity;
      trades++;
    } else if (e.type === "order.closed" && e.orderId === orderId) status = e.status;
  }
  return { code: "OK", orderId, status, filled: fromMinor(filled, amountScale), trades };
}

export function rejected(code: SpotServiceCode): OrderAnswer {
  return { code, orderId: null, status: "rejected", filled: "0", trades: 0 };
}
