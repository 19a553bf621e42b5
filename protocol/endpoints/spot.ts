import * as z from "zod";
import { define } from "../endpoint";
import {
  clientOrderIdField,
  coinField,
  idempotencyKeyField as idempotencyKey,
  orderIdField,
  positiveDecimalField as positiveDecimal,
  slashSymbolField as symbolField,
} from "../fields";
import { OPEN_ACCOUNT_CODES } from "../accounts";
import type { OrderKind } from "../spot-order";

/** Spot trading calls (spec §7 "Orders", "Wallet and margin"). Symbols travel as BTC_USDT or BTC/USDT. */

/** Decimals of a price, an amount or an asset (the NUMERIC(38, 18) columns hold 18). */
const scaleField = z.number().int().min(0).max(18);
/** A fee in basis points: 0 to 1,000 (10 %). */
const feeField = z.number().int().min(0).max(1_000);
/** A market's listing as an operator sees it after a change. */
const adminMarketSchema = z.object({
  symbol: z.string(),
  priceScale: z.number(),
  amountScale: z.number(),
  tickSize: z.string(),
  lotSize: z.string(),
  minQuantity: z.string(),
  makerFeeBps: z.number(),
  takerFeeBps: z.number(),
  halted: z.boolean(),
});

/**
 * A spot market as the console's markets page lists it (issue 29): its listing and rules, whether
 * it is halted, and from market data its last price and base volume of the last 24 h (null when
 * it never traded, or when the engine runs without market data).
 */
const opsMarketSchema = adminMarketSchema.extend({
  base: z.string(),
  quote: z.string(),
  lastPrice: z.string().nullable(),
  volume24h: z.string().nullable(),
});
export type OpsMarket = z.infer<typeof opsMarketSchema>;

/** The order type in the place-order path, and the kind of order it is (protocol/spot-order.ts). */
export const ORDER_TYPES = { "1": "limit", "2": "market", "3": "stop" } as const satisfies Record<string, OrderKind>;
export type OrderTypeCode = keyof typeof ORDER_TYPES;
/** The path's order type for an order kind. */
export const ORDER_TYPE_CODES = { limit: "1", market: "2", stop: "3" } as const satisfies Record<OrderKind, OrderTypeCode>;

/**
 * Why an order ended, as the core's `order.closed` event says (the order history's `reason`
 * holds the same words): `filled`; cancelled by its member (`user`); the unfilled rest of an
 * IOC order (`ioc`) or of a market order the book could not fill (`no-liquidity`); a trade with
 * the member's own order prevented (`self-trade`); a fired stop that could not be placed as
 * post-only (`post-only`), fill-or-kill (`fok`) or at all (`rejected`); a moved order's old
 * place (`moved`). `cancelled`: a cancel for a reason this version does not name.
 */
export const ORDER_END_REASONS = ["filled", "user", "ioc", "fok", "post-only", "no-liquidity", "self-trade", "moved", "rejected", "cancelled"] as const;
export type OrderEndReason = (typeof ORDER_END_REASONS)[number];

export const orderAnswerSchema = z.object({
  orderId: z.string(),
  /** `waiting`: a stop order (type 3) waiting for the last price to reach its trigger. */
  status: z.enum(["open", "filled", "cancelled", "waiting"]),
  /** The amount filled (base), in this command. */
  filled: z.string(),
  trades: z.number().int(),
  /**
   * What is not filled, in the unit the order was sized in: the amount (`num`, base) not filled;
   * for a market buy by `money`, the money (quote) not spent. An order that ended with a rest
   * (IOC, no liquidity) keeps it here: nothing of it stays on the book. Absent only in an answer
   * to a retried idempotency key first answered before the field existed.
   */
  remaining: z.string().optional(),
  /** Why the order ended, when it ended in this call (`status` filled or cancelled). */
  endReason: z.enum(ORDER_END_REASONS).optional(),
  /** The `clientOrderId` the order was sent with, when it was. */
  clientOrderId: z.string().optional(),
});

const ACCOUNT_CODE_MESSAGE = "must be 1 (funding), 2 (spot) or 4 (contract)";

export const spotEndpoints = {
  /**
   * Places a spot order; `type` 1 = limit, 2 = market (docs/decisions/007), 3 = stop (plan order,
   * docs/decisions/009): `stopProfitPrice` and/or `stopLossPrice` (sent when its check is ticked),
   * `triggerMoney` = the limit price it enters the book at once fired (absent: at market), `num`,
   * or `money` for a market buy. Which fields each type takes: `readOrderShape`
   * (protocol/spot-order.ts). A stop is answered with status `waiting`.
   */
  placeOrder: define({
    method: "POST",
    path: "coin/entrust/exchange/:type",
    params: z.object({ type: z.enum(["1", "2", "3"], { message: "must be 1 (limit), 2 (market) or 3 (stop)" }) }),
    body: z.object({
      symbol: symbolField,
      direction: z.enum(["buy", "sell"], { message: "must be buy or sell" }),
      price: positiveDecimal.optional(),
      num: positiveDecimal.optional(),
      money: positiveDecimal.optional(),
      /** Stop orders: the limit price the order enters the book at when fired; absent = market. */
      triggerMoney: positiveDecimal.optional(),
      /** Stop orders: a sell fires when the last price rises to it, a buy when it falls to it. */
      stopProfitPrice: positiveDecimal.optional(),
      /** Stop orders: a sell fires when the last price falls to it, a buy when it rises to it. */
      stopLossPrice: positiveDecimal.optional(),
      tif: z.enum(["GTC", "IOC", "FOK", "POST_ONLY"]).default("GTC"),
      /** The member's own id for the order, echoed in the answer and the order history (not unique; decision 022). */
      clientOrderId: clientOrderIdField.optional(),
      /** Spec §3 preference `dealType`: `cash` trades from the spot account, `pry` from a margin account (decision 050). */
      dealType: z.enum(["cash", "pry"], { message: "must be cash or pry" }).default("cash"),
      /** With `pry`: cross margin (`all`, the default) or the market's isolated account (`fixed`). */
      marginMode: z.enum(["all", "fixed"], { message: "must be all or fixed" }).default("all"),
      idempotencyKey,
    }),
    response: orderAnswerSchema,
  }),
  cancelOrder: define({
    method: "POST",
    path: "coin/entrust/cancel/entrust",
    body: z.object({ orderId: orderIdField }),
    response: z.null(),
  }),
  balances: define({
    method: "GET",
    path: "coin/assets/getMyBalance",
    query: z.object({ type: z.enum(OPEN_ACCOUNT_CODES, { message: ACCOUNT_CODE_MESSAGE }) }),
    response: z.array(z.object({ coin: z.string(), available: z.string(), frozen: z.string() })),
  }),
  /** Moves funds between two of the member's accounts (protocol/accounts.ts: 1 funding, 2 spot, 4 contract). */
  transfer: define({
    method: "GET",
    path: "coin/wallet/trans",
    query: z.object({
      from: z.enum(OPEN_ACCOUNT_CODES, { message: ACCOUNT_CODE_MESSAGE }),
      to: z.enum(OPEN_ACCOUNT_CODES, { message: ACCOUNT_CODE_MESSAGE }),
      coin: coinField,
      amount: positiveDecimal,
      idempotencyKey,
    }),
    response: z.null(),
  }),
  /** The public demo login of a demo install (not in the spec; null when the install has none). */
  demoAccount: define({
    method: "GET",
    path: "coin/open/demoAccount",
    response: z.object({ account: z.string(), password: z.string() }).nullable(),
  }),
  /** Operator call (not in the spec): halt or resume a market (halted: no new orders, cancels kept). */
  adminMarketHalt: define({
    method: "POST",
    path: "/admin/market/halt",
    operator: "markets.change",
    absolute: true,
    body: z.object({ symbol: symbolField, halted: z.boolean() }),
    response: z.object({ symbol: z.string(), halted: z.boolean() }),
  }),
  /** Operator call (not in the spec): every spot market with its rules and halt, in listing order (the console's markets page). */
  opsMarkets: define({
    method: "GET",
    path: "/admin/markets",
    operator: "markets.read",
    absolute: true,
    response: z.array(opsMarketSchema),
  }),
  /**
   * Operator call (not in the spec): list a new spot market while the engine runs. Decimals are
   * texts at the market's scales; a base asset the exchange does not list yet needs its scale and
   * name. Tick, lot and scales are fixed once listed (resting orders stand on them).
   */
  adminMarketAdd: define({
    method: "POST",
    path: "/admin/market/add",
    operator: "markets.change",
    absolute: true,
    body: z.object({
      symbol: symbolField,
      priceScale: scaleField,
      amountScale: scaleField,
      tickSize: positiveDecimal,
      lotSize: positiveDecimal,
      minQuantity: positiveDecimal,
      makerFeeBps: feeField,
      takerFeeBps: feeField,
      baseScale: scaleField.optional(),
      baseName: z.string().trim().min(1).max(40).optional(),
    }),
    response: adminMarketSchema,
  }),
  /** Operator call (not in the spec): change a live market's minimum quantity or fees, from the next order. */
  adminMarketUpdate: define({
    method: "POST",
    path: "/admin/market/update",
    operator: "markets.change",
    absolute: true,
    body: z
      .object({ symbol: symbolField, minQuantity: positiveDecimal.optional(), makerFeeBps: feeField.optional(), takerFeeBps: feeField.optional() })
      .refine((b) => b.minQuantity !== undefined || b.makerFeeBps !== undefined || b.takerFeeBps !== undefined, "give minQuantity, makerFeeBps or takerFeeBps"),
    response: adminMarketSchema,
  }),
  /** Operator call (not in the spec): credit a member's account from outside. Needs the admin token. */
  adminDeposit: define({
    method: "POST",
    path: "/admin/deposit",
    operator: "deposits.credit",
    absolute: true,
    body: z.object({
      uid: z.string().regex(/^\d{8}$/, "must be a member uid"),
      coin: coinField,
      account: z.enum(["funding", "spot"]),
      amount: positiveDecimal,
      reference: z.string().regex(/^[A-Za-z0-9_-]{4,64}$/),
    }),
    response: z.null(),
  }),
} as const;
