import * as z from "zod";
import { idempotencyKeyField } from "#protocol/fields";
import type { DecimalMark } from "../decimal-input";
import { decimalField } from "./decimal-field";

/**
 * The buy and sell forms of the spot trading page (spec §3 "Spot trade settings": num, money,
 * triggerMoney, stop-profit price and check, stop-loss price and check). Number fields are read
 * exactly as typed in the member's language (decision 014): a value that is not a plain decimal
 * within the market's precision is refused, never reshaped; the §5 clean-up runs only in the
 * browser, as the member types. Messages are text keys.
 *
 * - limit: price + num.
 * - market: a buy spends `money` (quote), a sell sells `num` (base).
 * - stop: stop-profit and/or stop-loss trigger prices (each with its check), `triggerMoney` the
 *   price the order enters the book at once triggered, and `num`. (The engine also takes stop
 *   orders that enter at market; the form offers the limit kind, whose cost is known up front.)
 */
export const ORDER_TYPES = ["limit", "market", "stop"] as const;
export type OrderFormType = (typeof ORDER_TYPES)[number];

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
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      const need = (field: "price" | "num" | "money" | "stopProfitPrice" | "stopLossPrice", message: string) => {
        if (!v[field]) ctx.addIssue({ code: "custom", path: [field], message });
      };
      const buyAtMarket = v.side === "buy" && v.orderType === "market";
      if (v.orderType === "limit") need("price", "spot.validation.price_required");
      if (buyAtMarket) need("money", "spot.validation.money_required");
      else need("num", "spot.validation.num_required");
      if (v.orderType === "stop") {
        if (!v.triggerMoney) ctx.addIssue({ code: "custom", path: ["triggerMoney"], message: "spot.validation.price_required" });
        if (!v.stopProfit && !v.stopLoss) ctx.addIssue({ code: "custom", path: ["stopProfit"], message: "spot.validation.stop_required" });
        if (v.stopProfit) need("stopProfitPrice", "spot.validation.stop_price_required");
        if (v.stopLoss) need("stopLossPrice", "spot.validation.stop_price_required");
      }
    });
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
  idempotencyKey: string;
}

/** The engine request for a valid form: the order type number and the body fields that apply. */
export function toOrderRequest(v: SpotOrderForm, symbol: string) {
  const buyAtMarket = v.side === "buy" && v.orderType === "market";
  const amount = buyAtMarket ? { money: v.money } : { num: v.num };
  const base = { symbol, direction: v.side, idempotencyKey: v.idempotencyKey, ...amount };
  if (v.orderType === "limit") return { type: "1" as const, body: { ...base, price: v.price } };
  if (v.orderType === "market") return { type: "2" as const, body: base };
  return {
    type: "3" as const,
    body: {
      ...base,
      triggerMoney: v.triggerMoney,
      stopProfitPrice: v.stopProfit ? v.stopProfitPrice : undefined,
      stopLossPrice: v.stopLoss ? v.stopLossPrice : undefined,
    },
  };
}

/**
 * A market's input precision: prices at `coin_coin_scale`, amounts at `base_coin_scale`, and a
 * quote amount (money) at their sum — every trade value is a whole number of those units.
 */
export function precisionOf(symbol: { coin_coin_scale: number; base_coin_scale: number }): MarketPrecision {
  return { priceScale: symbol.coin_coin_scale, amountScale: symbol.base_coin_scale, quoteScale: Math.min(8, symbol.coin_coin_scale + symbol.base_coin_scale) };
}
