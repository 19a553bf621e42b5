// Bundling only (the page's modules, for where the browser build puts them): schema-bundle.ts.
import "./schema-bundle";
import * as z from "zod";
import { ORDER_TYPE_CODES } from "#protocol/endpoints/spot";
import { idempotencyKeyField } from "#protocol/fields";
import { ORDER_KINDS, readOrderShape, type OrderField, type OrderFields, type OrderKind, type OrderShapeIssue } from "#protocol/spot-order";
import type { DecimalMark } from "#protocol/decimal-input";
import { DEALS } from "../trading-tabs";
import { decimalField } from "./decimal-field";

/**
 * The buy and sell forms of the spot trading page (spec §3 "Spot trade settings": num, money,
 * triggerMoney, stop-profit price and check, stop-loss price and check). Number fields are read
 * exactly as typed in the member's language (decisions 014 and 039): a value that is not a plain
 * decimal within the market's precision is refused, never reshaped, on both tiers; nothing in the
 * browser rewrites what was typed. Messages are text keys.
 *
 * Which fields each order type needs is the protocol's rule (`readOrderShape`, the one the engine
 * refuses by); the form adds what is its own: a buy at market spends `money`, a sell sells `num`;
 * a stop price is sent only when its check is ticked; and a stop enters the book at
 * `triggerMoney` (the engine also takes stops that enter at market; the form offers the limit
 * kind, whose cost is known up front).
 */
export const ORDER_TYPES = ORDER_KINDS;
export type OrderFormType = OrderKind;

/** The form's message for a field the order type needs. */
const REQUIRED_MESSAGES: Record<OrderField, string> = {
  price: "spot.validation.price_required",
  triggerMoney: "spot.validation.price_required",
  num: "spot.validation.num_required",
  money: "spot.validation.money_required",
  stopProfitPrice: "spot.validation.stop_price_required",
  stopLossPrice: "spot.validation.stop_price_required",
};

export interface MarketPrecision {
  /** Decimals of a price (`coin_coin_scale`). */
  priceScale: number;
  /** Decimals of an amount (`base_coin_scale`). */
  amountScale: number;
  /** Decimals of a quote amount (money). */
  quoteScale: number;
}

/** The order form's schema for a market's precision, reading numbers with the member's decimal mark. */
export function spotOrderSchema(p: MarketPrecision, mark: DecimalMark) {
  const price = decimalField({ scale: p.priceScale, mark });
  return z
    .object({
      side: z.enum(["buy", "sell"]),
      orderType: z.enum(ORDER_TYPES),
      price,
      num: decimalField({ scale: p.amountScale, mark }),
      money: decimalField({ scale: p.quoteScale, mark }),
      triggerMoney: price,
      stopProfit: z.literal("on").optional(),
      stopProfitPrice: price,
      stopLoss: z.literal("on").optional(),
      stopLossPrice: price,
      /** The account the order trades from (`?deal=` of the page): cash, or margin cross (`all`) or isolated (`fixed`). */
      deal: z.enum(DEALS).default("cash"),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      const issue = (field: string, message: string) => ctx.addIssue({ code: "custom", path: [field], message });
      if (v.orderType === "stop") {
        if (!v.triggerMoney) issue("triggerMoney", REQUIRED_MESSAGES.triggerMoney);
        if (!v.stopProfit && !v.stopLoss) issue("stopProfit", "spot.validation.stop_required");
        if (v.stopProfit && !v.stopProfitPrice) issue("stopProfitPrice", REQUIRED_MESSAGES.stopProfitPrice);
        if (v.stopLoss && !v.stopLossPrice) issue("stopLossPrice", REQUIRED_MESSAGES.stopLossPrice);
      }
      const reading = readOrderShape(v.orderType, v.side, orderFieldsOf(v));
      for (const problem of reading.ok ? [] : reading.issues) if (shownOnForm(problem, v)) issue(problem.field, REQUIRED_MESSAGES[problem.field]);
    });
}

/**
 * Whether a protocol issue says something the form has not: the form only ever sends the fields an
 * order type takes (so only missing ones count), has said what a stop's checks and entry price
 * need above, and a stop's size is judged once its entry price is there.
 */
function shownOnForm(problem: OrderShapeIssue, v: { orderType: OrderKind; triggerMoney?: string | undefined }): boolean {
  if (problem.problem !== "missing" || problem.reason === "STOP_NEEDS_TRIGGER") return false;
  return v.orderType !== "stop" || v.triggerMoney !== undefined;
}

/** The amount fields a form's order sends: those of its type, a stop price only when its check is ticked. */
function orderFieldsOf(v: Omit<SpotOrderForm, "idempotencyKey" | "deal">): OrderFields {
  const buyAtMarket = v.side === "buy" && v.orderType === "market";
  const amount = buyAtMarket ? { money: v.money } : { num: v.num };
  if (v.orderType === "limit") return { ...amount, price: v.price };
  if (v.orderType === "market") return amount;
  return {
    ...amount,
    triggerMoney: v.triggerMoney,
    stopProfitPrice: v.stopProfit ? v.stopProfitPrice : undefined,
    stopLossPrice: v.stopLoss ? v.stopLossPrice : undefined,
  };
}
export type SpotOrderForm = z.output<ReturnType<typeof spotOrderSchema>>;
/** The form's fields as typed (every value a string until checked). */
export interface SpotOrderFormInput {
  side: string;
  orderType: string;
  price?: string;
  num?: string;
  money?: string;
  triggerMoney?: string;
  stopProfit?: string;
  stopProfitPrice?: string;
  stopLoss?: string;
  stopLossPrice?: string;
  deal?: string;
  idempotencyKey: string;
}

/** The engine request for a valid form: the order type number and the body fields that apply. */
export function toOrderRequest(v: SpotOrderForm, symbol: string) {
  const margin = v.deal === "cash" ? {} : { dealType: "pry" as const, marginMode: v.deal };
  return { type: ORDER_TYPE_CODES[v.orderType], body: { symbol, direction: v.side, idempotencyKey: v.idempotencyKey, ...orderFieldsOf(v), ...margin } };
}

/**
 * A market's input precision: prices at `coin_coin_scale`, amounts at `base_coin_scale`, and a
 * quote amount (money) at their sum — every trade value is a whole number of those units.
 */
export function precisionOf(symbol: { coin_coin_scale: number; base_coin_scale: number }): MarketPrecision {
  return { priceScale: symbol.coin_coin_scale, amountScale: symbol.base_coin_scale, quoteScale: Math.min(8, symbol.coin_coin_scale + symbol.base_coin_scale) };
}
