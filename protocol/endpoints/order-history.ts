import * as z from "zod";
import { define, intString } from "../endpoint";
import { dayField, orderIdField, slashSymbolField } from "../fields";
import { unsignedDecimalString } from "../money";

/**
 * A member's spot order history (spec §7 "Orders"): open orders and finished orders, the trades
 * (fills) of the member, the trades of one order, the symbols the member has orders in, and a
 * CSV export. Every call answers the calling member's own rows only. Paths carry the `coin/`
 * head like the other member calls; the spec's `entrust/…` list shares that head.
 * See docs/decisions/010-spot-order-history-api.md for the shapes and why.
 */

/** Statuses after which an order never changes again; any other status is an open order. */
export const FINAL_ORDER_STATUSES = ["filled", "cancelled"] as const;

export const HISTORY_PAGE_SIZE_DEFAULT = 20;
export const HISTORY_PAGE_SIZE_MAX = 100;
/** An export refuses more rows than this (narrow the filter instead). */
export const EXPORT_MAX_ROWS = 100_000;

const symbolFilter = slashSymbolField;

/** A calendar day in UTC, YYYY-MM-DD, from 2000 to 2099 (protocol/fields.ts). */
export const dayString = dayField;

export { orderIdField };

/**
 * Which account an order traded from (issue 31, decision 050): `spot` (cash), `all` (the cross
 * margin account) or `fixed` (an isolated margin account). A filter without it answers every account.
 */
export const ORDER_ACCOUNTS = ["spot", "all", "fixed"] as const;
export type OrderAccount = (typeof ORDER_ACCOUNTS)[number];

const filterFields = {
  account: z.enum(ORDER_ACCOUNTS, { message: "must be spot, all or fixed" }).optional(),
  /** One market, BTC_USDT or BTC/USDT (answered as BTC/USDT). */
  symbol: symbolFilter.optional(),
  side: z.enum(["buy", "sell"], { message: "must be buy or sell" }).optional(),
  /** First day (UTC) of the range, inclusive. */
  from: dayString.optional(),
  /** Last day (UTC) of the range, inclusive. */
  to: dayString.optional(),
};

const pagingFields = {
  pageNo: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less")).optional(),
  pageSize: intString.pipe(z.number().int().min(1, "must be 1 or more").max(HISTORY_PAGE_SIZE_MAX, `must be ${HISTORY_PAGE_SIZE_MAX} or less`)).optional(),
};

const rangeInOrder = (v: { from?: string; to?: string }) => !v.from || !v.to || v.from <= v.to;
const rangeMessage = { path: ["to"], message: "must not be before from" };

/** Filter of the order and trade lists. */
export const historyFilterSchema = z.object(filterFields).refine(rangeInOrder, rangeMessage);
export type HistoryFilter = z.output<typeof historyFilterSchema>;

const historyQuerySchema = z.object({ ...filterFields, ...pagingFields }).refine(rangeInOrder, rangeMessage);

/** One order as the member sees it. Amounts are exact decimal strings. */
export const spotOrderViewSchema = z.object({
  orderId: z.string(),
  /** BTC/USDT */
  symbol: z.string(),
  /** The account it trades from: spot, or margin (`all` cross, `fixed` isolated on its symbol). */
  account: z.enum(ORDER_ACCOUNTS),
  side: z.enum(["buy", "sell"]),
  /** limit | market (a stop order is one of them with stop prices; show unknown kinds as they are). */
  type: z.string(),
  tif: z.string(),
  /** open, filled, cancelled, or a non-final status such as waiting (a stop order not yet triggered). */
  status: z.string(),
  /** Why a cancelled order ended: user, ioc, self-trade, no-liquidity, moved, post-only, fok, rejected. */
  reason: z.string().nullable(),
  /** Limit price (for a stop order: the price it enters the book at once fired); null for a market order. */
  price: unsignedDecimalString.nullable(),
  /** Stop orders (decision 009): the stop-profit and stop-loss trigger prices; null when not set. */
  stopProfitPrice: unsignedDecimalString.nullable(),
  stopLossPrice: unsignedDecimalString.nullable(),
  /** Which trigger fired a stop order (profit or loss); null while it waits or for other orders. */
  triggeredBy: z.string().nullable(),
  /** The member's own id for the order, as sent with it; null when none was. */
  clientOrderId: z.string().nullable(),
  /** Ordered amount in the base coin; null for a market buy by money. */
  quantity: unsignedDecimalString.nullable(),
  /** Budget in the quote coin of a market buy by money; null otherwise. */
  money: unsignedDecimalString.nullable(),
  /** Filled amount in the base coin. */
  filled: unsignedDecimalString,
  /** What the fills were worth, in the quote coin. */
  filledValue: unsignedDecimalString,
  /** Average fill price (filled value ÷ filled amount, cut to the quote coin's decimals); null when nothing filled. */
  avgPrice: unsignedDecimalString.nullable(),
  /** Fees the member paid on this order's fills, in `feeCoin` (a buy pays in the base coin, a sell in the quote coin). */
  fee: unsignedDecimalString,
  feeCoin: z.string(),
  /** Number of fills. */
  trades: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SpotOrderView = z.infer<typeof spotOrderViewSchema>;

/** One fill as the member sees it: their side, their role, their fee. */
export const spotTradeViewSchema = z.object({
  tradeId: z.string(),
  /** The member's order in this trade. */
  orderId: z.string(),
  symbol: z.string(),
  side: z.enum(["buy", "sell"]),
  role: z.enum(["maker", "taker"]),
  price: unsignedDecimalString,
  quantity: unsignedDecimalString,
  /** price × quantity, in the quote coin. */
  value: unsignedDecimalString,
  fee: unsignedDecimalString,
  feeCoin: z.string(),
  createdAt: z.string(),
});
export type SpotTradeView = z.infer<typeof spotTradeViewSchema>;

/** A page of rows, shaped like `getData` pages. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({
    records: z.array(row),
    total: z.number().int(),
    size: z.number().int(),
    current: z.number().int(),
    pages: z.number().int(),
  });

export const EXPORT_SCOPES = ["current", "history", "trades"] as const;
export type ExportScope = (typeof EXPORT_SCOPES)[number];

export const exportBodySchema = z
  .object({ scope: z.enum(EXPORT_SCOPES, { message: "must be current, history or trades" }), ...filterFields })
  .refine(rangeInOrder, rangeMessage);

export const orderHistoryEndpoints = {
  /** The member's orders: `current` = not final (open, waiting), `history` = filled or cancelled. Newest first. */
  myOrders: define({
    method: "GET",
    path: "coin/entrust/get/myExchangeLog/:scope",
    params: z.object({ scope: z.enum(["current", "history"], { message: "must be current or history" }) }),
    query: historyQuerySchema,
    response: pageOf(spotOrderViewSchema),
  }),
  /** The member's trades (fills), newest first: page number, page size, and the market (`spot`). */
  myTrades: define({
    method: "GET",
    path: "coin/entrust/entrustlog/:pageNo/:pageSize/:market",
    params: z.object({
      pageNo: pagingFields.pageNo.unwrap(),
      pageSize: pagingFields.pageSize.unwrap(),
      market: z.enum(["spot"], { message: "must be spot" }),
    }),
    query: historyFilterSchema,
    response: pageOf(spotTradeViewSchema),
  }),
  /** One of the member's orders with its trades (paged). Another member's order answers 404 like a missing one. */
  orderDetails: define({
    method: "GET",
    path: "coin/entrust/transaction/details/:orderId",
    params: z.object({ orderId: orderIdField }),
    query: z.object(pagingFields),
    response: z.object({ order: spotOrderViewSchema, trades: pageOf(spotTradeViewSchema) }),
  }),
  /** The symbols the member has spot orders in (BTC/USDT), sorted: the choices of the filter. */
  orderSymbols: define({
    method: "POST",
    path: "coin/entrust/getEntrustLogCurrency",
    body: z.object({}),
    response: z.array(z.string()),
  }),
  /**
   * CSV download of the member's open orders, finished orders or trades for a filter. A success
   * is `text/csv` with `Content-Disposition: attachment` (not an envelope); a refusal is an
   * envelope as usual. More than EXPORT_MAX_ROWS rows is refused.
   */
  exportSpotTradeLog: define({
    method: "POST",
    path: "coin/entrust/exportSpotTradeLog",
    body: exportBodySchema,
    response: z.string(),
  }),
} as const;
