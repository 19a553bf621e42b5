import { fromMinor } from "../../protocol/money";
import type { SpotCode, SpotResult } from "../core/spot/spot-market";
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

/** The answer to an accepted order: its state after the command, what it filled, its own trades. */
export function placedAnswer(orderId: string, result: SpotResult, amountScale: number): OrderAnswer {
  const own = result.trades.filter((t) => t.takerOrderId === orderId);
  const closed = result.closed.find((x) => x.orderId === orderId);
  return {
    code: "OK",
    orderId,
    status: closed ? (closed.status === "filled" ? "filled" : "cancelled") : result.waiting ? "waiting" : "open",
    filled: fromMinor(own.reduce((sum, t) => sum + t.quantity, 0n), amountScale),
    // Its own trades (stops it fired trade in this command too).
    trades: own.length,
  };
}

export function rejected(code: SpotServiceCode): OrderAnswer {
  return { code, orderId: null, status: "rejected", filled: "0", trades: 0 };
}
