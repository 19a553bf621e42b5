import { ORDER_END_REASONS, type OrderEndReason } from "../../protocol/endpoints/spot";
import { fromMinor } from "../../protocol/money";
import type { CoreEvent } from "../core/exchange/events";
import type { SpotCode, SpotSymbolConfig } from "../core/spot/spot-market";
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
  /**
   * What is not filled, in the unit the order was sized in: the amount (base, at the market's
   * amount scale), or for a market buy by money the money not spent (quote, at the quote asset's
   * scale). Absent in a refusal, and in answers kept for retries before the field existed.
   */
  remaining?: string;
  /** Why the order ended, when it did in this command (the core's `order.closed`). */
  endReason?: OrderEndReason;
  /** The member's own id for the order, when one was sent. */
  clientOrderId?: string;
}

/**
 * The answer to an accepted order, from its command's events: its state after them, what it
 * filled and in how many trades — as the taker, and as a maker when a stop it fired traded
 * against what of it rested (the same figure its row in the tables holds).
 */
export function placedAnswer(orderId: string, events: readonly CoreEvent[], market: Pick<SpotSymbolConfig, "amountScale" | "quoteAssetScale">): OrderAnswer {
  let status: OrderAnswer["status"] = "open";
  let filled = 0n;
  let spent = 0n;
  let trades = 0;
  let size: { quantity: bigint } | { money: bigint } | undefined;
  let endReason: OrderEndReason | undefined;
  let clientOrderId: string | undefined;
  for (const e of events) {
    if (e.type === "order.placed" && e.orderId === orderId) {
      if (e.waiting) status = "waiting";
      clientOrderId = e.clientOrderId;
      size = e.quantity !== undefined ? { quantity: e.quantity } : e.money !== undefined ? { money: e.money } : undefined;
    }
    // Its own trades (stops it fired trade in this command too, with others or against it).
    else if (e.type === "trade" && (e.takerOrderId === orderId || e.makerOrderId === orderId)) {
      filled += e.quantity;
      spent += e.value;
      trades++;
    } else if (e.type === "order.closed" && e.orderId === orderId) {
      status = e.status;
      endReason = endReasonOf(e.status, e.reason);
    }
  }
  const answer: OrderAnswer = { code: "OK", orderId, status, filled: fromMinor(filled, market.amountScale), trades };
  if (size !== undefined)
    answer.remaining =
      "quantity" in size ? fromMinor(max0(size.quantity - filled), market.amountScale) : fromMinor(max0(size.money - spent), market.quoteAssetScale);
  if (endReason !== undefined) answer.endReason = endReason;
  if (clientOrderId !== undefined) answer.clientOrderId = clientOrderId;
  return answer;
}

/** The answer's end reason: `filled`, or the core's reason for a cancel (`cancelled` when it names none this version knows). */
export function endReasonOf(status: "filled" | "cancelled", reason: string | undefined): OrderEndReason {
  if (status === "filled") return "filled";
  return (ORDER_END_REASONS as readonly string[]).includes(reason ?? "") && reason !== "filled" ? (reason as OrderEndReason) : "cancelled";
}

const max0 = (value: bigint) => (value > 0n ? value : 0n);

export function rejected(code: SpotServiceCode): OrderAnswer {
  return { code, orderId: null, status: "rejected", filled: "0", trades: 0 };
}
