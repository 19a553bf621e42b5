import type { RefusalReason } from "./refusal-reasons";

/**
 * Which fields each kind of spot order takes, written once (issue 11): the engine's order
 * endpoint refuses by it (its first issue is the refusal's reason), the web's order form explains
 * by it (each issue under its field), and what it reads is a typed shape in which a limit order
 * has its price, so nothing after it checks again.
 *
 * - **limit**: `price` and `num`.
 * - **market**: a sell names `num`; a buy names `num` or `money` (the quote coin to spend), not both.
 * - **stop** (docs/decisions/009): `stopProfitPrice` and/or `stopLossPrice`; once fired it enters
 *   at `triggerMoney` with `num`, or, without `triggerMoney`, at market: a sell with `num`, a buy
 *   with `money` (an amount bought at market has no cost known up front to hold).
 *
 * Only a stop takes stop prices; no kind takes `price` but limit.
 */
export const ORDER_KINDS = ["limit", "market", "stop"] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];
export type OrderSide = "buy" | "sell";

/** An order's amount fields as they travel: unsigned decimal strings, absent when not sent. */
export interface OrderFields {
  price?: string | undefined;
  num?: string | undefined;
  money?: string | undefined;
  triggerMoney?: string | undefined;
  stopProfitPrice?: string | undefined;
  stopLossPrice?: string | undefined;
}
export type OrderField = keyof OrderFields;

/** An amount of the base coin. */
export type AmountSize = { num: string; money?: undefined };
/** How much: an amount of the base coin, or (market buys only) money of the quote coin to spend. */
export type OrderSize = AmountSize | { money: string; num?: undefined };

/** An order whose fields fit its kind. */
export type OrderShape =
  | { kind: "limit"; price: string; size: AmountSize }
  | { kind: "market"; size: OrderSize }
  | {
      kind: "stop";
      stopProfitPrice?: string;
      stopLossPrice?: string;
      /** What it places once fired: a limit order at `price`, or (no price) a market order. */
      entry: { price: string; size: AmountSize } | { price?: undefined; size: OrderSize };
    };

export interface OrderShapeIssue {
  field: OrderField;
  /** `missing`: the kind needs the field; `extra`: the kind does not take it. */
  problem: "missing" | "extra";
  /** The refusal's reason code when the engine is sent this. */
  reason: Extract<RefusalReason, "ORDER_BAD_COMMAND" | "STOP_ONLY_FIELDS" | "STOP_NEEDS_TRIGGER" | "STOP_MARKET_BUY_BY_AMOUNT">;
}

export type OrderShapeReading = { ok: true; shape: OrderShape } | { ok: false; issues: OrderShapeIssue[] };

const STOP_FIELDS = ["triggerMoney", "stopProfitPrice", "stopLossPrice"] as const;

/** Reads an order's fields as its kind; issues come most telling first (the engine answers with the first). */
export function readOrderShape(kind: OrderKind, side: OrderSide, fields: OrderFields): OrderShapeReading {
  const issues: OrderShapeIssue[] = [];
  const missing = (field: OrderField, reason: OrderShapeIssue["reason"] = "ORDER_BAD_COMMAND") => issues.push({ field, problem: "missing", reason });
  const extra = (field: OrderField, reason: OrderShapeIssue["reason"] = "ORDER_BAD_COMMAND") => issues.push({ field, problem: "extra", reason });
  const { price, num, money, triggerMoney, stopProfitPrice, stopLossPrice } = fields;

  if (kind !== "stop") for (const field of STOP_FIELDS) if (fields[field] !== undefined) extra(field, "STOP_ONLY_FIELDS");
  if (kind === "stop" && stopProfitPrice === undefined && stopLossPrice === undefined) missing("stopProfitPrice", "STOP_NEEDS_TRIGGER");
  // What the order (or a stop's entry, once fired) is sized in.
  const atMarket = kind === "market" || (kind === "stop" && triggerMoney === undefined);
  if (kind === "limit" && price === undefined) missing("price");
  if (!atMarket || side === "sell") {
    if (num === undefined) missing("num");
    if (money !== undefined) extra("money");
  } else if (kind === "stop") {
    if (num !== undefined) extra("num", "STOP_MARKET_BUY_BY_AMOUNT");
    if (money === undefined) missing("money", "STOP_MARKET_BUY_BY_AMOUNT");
  } else if (num === undefined && money === undefined) missing("money");
  else if (num !== undefined && money !== undefined) extra("money");
  if (kind !== "limit" && price !== undefined) extra("price");
  if (issues.length > 0) return { ok: false, issues };

  const size: OrderSize = num !== undefined ? { num } : { money: money! };
  switch (kind) {
    case "limit":
      return { ok: true, shape: { kind, price: price!, size: { num: num! } } };
    case "market":
      return { ok: true, shape: { kind, size } };
    case "stop":
      return {
        ok: true,
        shape: {
          kind,
          ...(stopProfitPrice !== undefined ? { stopProfitPrice } : {}),
          ...(stopLossPrice !== undefined ? { stopLossPrice } : {}),
          entry: triggerMoney !== undefined ? { price: triggerMoney, size: { num: num! } } : { size },
        },
      };
  }
}
