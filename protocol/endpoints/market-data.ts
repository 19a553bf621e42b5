import * as z from "zod";
import { define, intString, millisString } from "../endpoint";
import { coinField, slashSymbolField, symbolListField } from "../fields";
import { marketItemSchema } from "../market";
import { decimalString, unsignedDecimalString } from "../money";

/**
 * Public market data (spec §7 "Market"): symbols and their trading rules, one symbol's trading
 * snapshot, k-lines, and prices across quotes. The real-time pushes carry the same shapes
 * (see `protocol/realtime.ts`). Symbols travel as BTC_USDT (or BTC/USDT) and come back as BTC/USDT.
 */
export const KLINE_PERIODS = ["1m", "5m", "15m", "30m", "1h", "4h", "1d", "1w", "1M"] as const;
export type KlinePeriod = (typeof KLINE_PERIODS)[number];

export const symbolParam = slashSymbolField;

/** Trading rules of a spot symbol (spec §3 "Spot trade settings"). */
export const spotSymbolSchema = z.object({
  symbolName: z.string(),
  coin_symbol: z.string(),
  quote_symbol: z.string(),
  /** Decimals of an amount (base coin), spec `base_coin_scale`. */
  base_coin_scale: z.number().int(),
  /** Decimals of a price (quote coin), spec `coin_coin_scale`. */
  coin_coin_scale: z.number().int(),
  /** Decimals of the base asset itself (balances, fees in base), which may exceed an amount's. */
  baseAssetScale: z.number().int(),
  /** Decimals of the quote asset itself (balances, money spent, fees in quote). */
  quoteAssetScale: z.number().int(),
  tickSize: unsignedDecimalString,
  lotSize: unsignedDecimalString,
  minQuantity: unsignedDecimalString,
  /** Fees in percent of the received asset, e.g. "0.1". */
  makerFee: unsignedDecimalString,
  takerFee: unsignedDecimalString,
  /** Halted by an operator: new orders are refused, cancels still work. */
  halted: z.boolean().default(false),
});
export type SpotSymbol = z.infer<typeof spotSymbolSchema>;

/** One price level: [price, total amount]. */
export const levelSchema = z.tuple([unsignedDecimalString, unsignedDecimalString]);

/**
 * Aggregated order book levels, best first. `seq` grows with every change of the book, also across
 * engine restarts (it starts from the start time): a client keeps the snapshot with the highest.
 */
export const depthSchema = z.object({
  symbol: z.string(),
  seq: z.number().int(),
  bids: z.array(levelSchema),
  asks: z.array(levelSchema),
});
export type Depth = z.infer<typeof depthSchema>;

/** A public trade: the taker's side tells whether the price was lifted (buy) or hit (sell). */
export const publicTradeSchema = z.object({
  /** The trade's id: the same in the snapshot, the push and after a restart; unique; opaque (no order). */
  id: z.string(),
  price: unsignedDecimalString,
  quantity: unsignedDecimalString,
  side: z.enum(["buy", "sell"]),
  time: z.number().int(),
});
export type PublicTrade = z.infer<typeof publicTradeSchema>;

/** A candle: open time (ms) and open, high, low, close, base volume, quote turnover. */
export const candleSchema = z.object({
  t: z.number().int(),
  o: unsignedDecimalString,
  h: unsignedDecimalString,
  l: unsignedDecimalString,
  c: unsignedDecimalString,
  v: unsignedDecimalString,
  a: unsignedDecimalString,
});
export type WireCandle = z.infer<typeof candleSchema>;

export const spotGoodsSchema = z.object({
  symbol: spotSymbolSchema,
  ticker: marketItemSchema,
  depth: depthSchema,
  trades: z.array(publicTradeSchema),
});
export type SpotGoods = z.infer<typeof spotGoodsSchema>;

export const periodField = z.enum(KLINE_PERIODS, { message: `must be one of ${KLINE_PERIODS.join(", ")}` });
export const limitField = (max: number, fallback: number) =>
  intString.pipe(z.number().int().min(1, "must be at least 1").max(max, `must be at most ${max}`)).default(fallback);

export const marketDataEndpoints = {
  /** Every enabled spot symbol with its trading rules. */
  spotSymbols: define({
    method: "GET",
    path: "coin/open/getSpotSymbols",
    response: z.array(spotSymbolSchema),
  }),
  /** One symbol's trading snapshot: rules, 24 h ticker, depth (20 levels a side) and the latest trades. */
  spotGoods: define({
    method: "GET",
    path: "coin/open/getSpotGoods",
    query: z.object({ symbol: symbolParam, levels: limitField(100, 20) }),
    response: spotGoodsSchema,
  }),
  /** Candles ending at `to` (ms, default now), oldest first. */
  klineHistory: define({
    method: "GET",
    path: "coin/open/get/kline/history",
    query: z.object({
      symbol: symbolParam,
      period: periodField,
      /** Candles that open before this time (ms), to page back through history. */
      to: millisString.optional(),
      limit: limitField(1000, 300),
    }),
    response: z.array(candleSchema),
  }),
  /** Closing prices of several symbols' latest candles (sparklines), oldest first. */
  batchKLineList: define({
    method: "GET",
    path: "coin/open/batchKLineList",
    query: z.object({
      symbols: symbolListField,
      period: periodField.default("1h"),
      limit: limitField(200, 24),
    }),
    response: z.record(z.string(), z.array(unsignedDecimalString)),
  }),
  /** A coin's last price in each quote it trades against. */
  priceComparison: define({
    method: "GET",
    path: "coin/open/getPriceComparison/:coin",
    params: z.object({ coin: coinField }),
    response: z.object({ coin: z.string(), prices: z.array(z.object({ quote: z.string(), price: unsignedDecimalString, change: decimalString.nullable() })) }),
  }),
  /** A short-lived ticket to follow the member's private topic `refresh_{memberId}` over socket.io. */
  realtimeTicket: define({
    method: "GET",
    path: "coin/member/realtimeTicket",
    response: z.object({ topic: z.string(), ticket: z.string(), expiresAt: z.number().int() }),
  }),
} as const;
