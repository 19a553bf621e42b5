// Bundling only (the page's modules, for where the browser build puts them): schema-bundle.ts.
import "./schema-bundle";
import * as z from "zod";
import { idempotencyKeyField } from "#protocol/fields";
import type { DecimalMark } from "#protocol/decimal-input";
import { CONTRACT_ORDER_TYPES, CONTRACT_TIME_IN_FORCE, CONTRACT_TRIGGER_PRICES } from "../contract-choices";
import { decimalField } from "./decimal-field";
import { WHOLE_CONTRACTS_PATTERN } from "#protocol/limits";

/**
 * The forms of the contract trading page (issue 30): an order (open or close, long or short, limit
 * or market, in whole contracts), the member's leverage in the contract, and a position's margin
 * added or taken back. Prices and amounts are read exactly as typed in the member's language
 * (decisions 014 and 039), on both tiers; messages are text keys.
 */

/** Whole contracts, 1 to 10,000,000, digits only (a contract is not divided). */
const contractsField = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const text = raw?.trim() ?? "";
    if (text === "") return undefined;
    if (!WHOLE_CONTRACTS_PATTERN.test(text) || Number(text) > 10_000_000) {
      ctx.addIssue({ code: "custom", message: "contract_page.validation.num_whole" });
      return z.NEVER;
    }
    return text;
  });

/**
 * What an order is about: its price (limits; a stop's is optional: without one it is placed at the
 * market), its contracts, and a stop's trigger (the price, and whether the mark or the last trade
 * price must reach it; decision 048).
 */
function orderFields(priceScale: number, mark: DecimalMark) {
  return {
    orderType: z.enum(CONTRACT_ORDER_TYPES),
    price: decimalField({ scale: priceScale, mark }),
    num: contractsField,
    triggerPrice: decimalField({ scale: priceScale, mark }),
    triggerBy: z.enum(CONTRACT_TRIGGER_PRICES, { message: "contract_page.validation.trigger_by" }).default("mark"),
  };
}

function needPriceAndQuantity(v: { orderType: string; price?: string; num?: string; triggerPrice?: string }, ctx: z.RefinementCtx) {
  if (v.orderType === "limit" && !v.price) ctx.addIssue({ code: "custom", path: ["price"], message: "spot.validation.price_required" });
  if (v.orderType === "stop" && !v.triggerPrice) ctx.addIssue({ code: "custom", path: ["triggerPrice"], message: "contract_page.validation.trigger_required" });
  if (!v.num) ctx.addIssue({ code: "custom", path: ["num"], message: "spot.validation.num_required" });
}

/** An order: the direction is the button pressed (1 open long, 2 open short, 3 close long, 4 close short). */
export function contractOrderSchema(priceScale: number, mark: DecimalMark) {
  return z
    .object({
      direction: z.enum(["1", "2", "3", "4"], { message: "contract_page.validation.direction" }),
      ...orderFields(priceScale, mark),
      /** A limit order's time in force (absent: good till cancelled). */
      tif: z.enum(CONTRACT_TIME_IN_FORCE, { message: "contract_page.validation.tif" }).default("GTC"),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine(needPriceAndQuantity);
}

/** The form's preview (the button that asks, without JavaScript, what an opening order would leave): the order without a direction. */
export function contractPreviewSchema(priceScale: number, mark: DecimalMark) {
  return z.object(orderFields(priceScale, mark)).superRefine(needPriceAndQuantity);
}
export type ContractOrderForm = z.output<ReturnType<typeof contractOrderSchema>>;

/** The leverage in a contract: a whole number from 1 to the contract's most. */
export function contractLeverageSchema(maxLeverage: number) {
  return z.object({
    leverage: z
      .string()
      .trim()
      .regex(/^[1-9]\d{0,2}$/, "contract_page.validation.leverage")
      .transform(Number)
      .refine((n) => n <= maxLeverage, "contract_page.validation.leverage"),
    idempotencyKey: idempotencyKeyField,
  });
}

/** A position's take profit and stop loss: either or both prices, and what they watch (decision 048). */
export function contractTpslSchema(priceScale: number, mark: DecimalMark) {
  return z
    .object({
      takeProfit: decimalField({ scale: priceScale, mark }),
      stopLoss: decimalField({ scale: priceScale, mark }),
      triggerBy: z.enum(CONTRACT_TRIGGER_PRICES, { message: "contract_page.validation.trigger_by" }).default("mark"),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      if (!v.takeProfit && !v.stopLoss) ctx.addIssue({ code: "custom", path: ["takeProfit"], message: "contract_page.validation.tpsl_needed" });
    });
}

/** Margin added to a position or taken back from it, in the settlement coin at its decimals. */
export function contractMarginSchema(settleScale: number, mark: DecimalMark) {
  return z
    .object({
      change: z.enum(["add", "remove"]),
      amount: decimalField({ scale: settleScale, mark }),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      if (!v.amount || !/[1-9]/.test(v.amount)) ctx.addIssue({ code: "custom", path: ["amount"], message: "contract_page.validation.amount_required" });
    });
}
