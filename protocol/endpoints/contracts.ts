import * as z from "zod";
import { define, intString, millisString } from "../endpoint";
import {
  coinField,
  idempotencyKeyField as idempotencyKey,
  MAX_SYMBOLS_PER_LIST,
  orderIdField,
  positiveDecimalField,
  slashSymbolField as symbolField,
} from "../fields";
import { WHOLE_CONTRACTS_PATTERN } from "../limits";
import { decimalString } from "../money";
import { candleSchema, depthSchema, limitField, periodField, publicTradeSchema } from "./market-data";

/**
 * Perpetual contracts (issue 30, spec §7; decision 046). Contract type 1 is USDT-margined (ubw,
 * linear: margin and profit in USDT), 2 coin-margined (bbw, inverse: a contract is a face value
 * in US dollars, margin and profit in the coin). Prices are decimal texts at the contract's price
 * scale, quantities whole contracts, money in the settlement coin; rates are decimal fractions
 * (0.0001 is 0.01 %).
 */
export const CONTRACT_TYPES = { "1": "linear", "2": "inverse" } as const;
const contractTypeField = z.enum(["1", "2"], { message: "must be 1 (USDT-margined) or 2 (coin-margined)" });

/** A contract's two price series: its last trade price and its mark price (what margins and liquidations use). */
export const CONTRACT_PRICE_SOURCES = ["last", "mark"] as const;
export type ContractPriceSource = (typeof CONTRACT_PRICE_SOURCES)[number];
const triggerByField = z.enum(CONTRACT_PRICE_SOURCES, { message: "must be mark or last" });

/**
 * The direction of a contract order (spec §7: "close is used when direction is above 2"): 1 opens
 * or adds to a long (buys), 2 a short (sells), 3 closes a long (sells), 4 closes a short (buys).
 */
export const CONTRACT_DIRECTIONS = {
  "1": { side: "buy", action: "open" },
  "2": { side: "sell", action: "open" },
  "3": { side: "sell", action: "close" },
  "4": { side: "buy", action: "close" },
} as const;
export type ContractDirection = keyof typeof CONTRACT_DIRECTIONS;

const pageNoField = intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less"));
/** A member's list of a contract type: one contract of it, and the page's size. */
const listQuery = z.object({
  symbol: symbolField.optional(),
  pageSize: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less")).optional(),
});

/** A page of a member's records, each of one contract and time, and how many there are in all. */
const pageOf = <T extends z.ZodRawShape>(fields: T) =>
  z.object({
    list: z.array(z.object({ symbolName: z.string(), contract_type: z.union([z.literal(1), z.literal(2)]), ...fields, createdAt: z.string() })),
    total: z.number().int(),
  });

/** What a contract trade export covers: a contract type, or one contract of it. */
export const contractExportBodySchema = z.object({ type: contractTypeField, symbol: symbolField.optional() });

/** Whole contracts: 1 to 10,000,000. */
const contractsField = z
  .string()
  .regex(WHOLE_CONTRACTS_PATTERN, "validation.contracts")
  .refine((v) => Number(v) <= 10_000_000, "validation.contracts");

const tierSchema = z.object({
  /** The band's largest position value, in the settlement coin. */
  maxValue: z.string(),
  maxLeverage: z.number().int(),
  /** Maintenance-margin rate as a fraction (0.004 is 0.4 %). */
  maintenanceRate: z.string(),
});

export const contractInfoSchema = z.object({
  symbolName: z.string(),
  /** 1 USDT-margined, 2 coin-margined (spec §3 `contract_type`). */
  contract_type: z.union([z.literal(1), z.literal(2)]),
  base: z.string(),
  quote: z.string(),
  settleCoin: z.string(),
  /** One contract: an amount of the base coin (linear), or US dollars (inverse). */
  contractSize: z.string(),
  contractUnit: z.string(),
  tickSize: z.string(),
  priceScale: z.number().int(),
  settleScale: z.number().int(),
  minQty: z.string(),
  maxQty: z.string(),
  maxLeverage: z.number().int(),
  makerFeeRate: z.string(),
  takerFeeRate: z.string(),
  /** How far from the mark a limit may be placed and a market order may trade (a fraction). */
  priceBand: z.string(),
  halted: z.boolean(),
  tiers: z.array(tierSchema),
});
export type ContractInfo = z.infer<typeof contractInfoSchema>;

export const contractStateSchema = z.object({
  symbolName: z.string(),
  contract_type: z.union([z.literal(1), z.literal(2)]),
  /** Null until the index has a fresh price. */
  markPrice: z.string().nullable(),
  indexPrice: z.string().nullable(),
  lastPrice: z.string().nullable(),
  /** The rate the current interval's premium gives so far, paid at `nextFundingTime` (ms). */
  fundingRate: z.string(),
  nextFundingTime: z.number().int().nullable(),
  fundingIntervalHours: z.number().int(),
  /** Contracts held long (= short) in all. */
  openInterest: z.string(),
  bestBid: z.string().nullable(),
  bestAsk: z.string().nullable(),
});
export type ContractState = z.infer<typeof contractStateSchema>;

export const positionSchema = z.object({
  symbolName: z.string(),
  contract_type: z.union([z.literal(1), z.literal(2)]),
  settleCoin: z.string(),
  side: z.enum(["long", "short"]),
  qty: z.string(),
  entryPrice: z.string(),
  markPrice: z.string().nullable(),
  /** Where the mark liquidates it (null: nowhere within reach). */
  liquidationPrice: z.string().nullable(),
  leverage: z.number().int(),
  /** Value at the mark, margin, maintenance margin, and profit at the mark: settlement coin. */
  value: z.string().nullable(),
  margin: z.string(),
  maintenanceMargin: z.string().nullable(),
  unrealisedPnl: z.string().nullable(),
  /** Return on the margin, percent (two decimals). */
  roe: z.string().nullable(),
  /** Isolated (its margin is all it risks) or cross (the free balance backs it too; decision 049). */
  marginMode: z.enum(["isolated", "cross"]),
  /** Its take profit and stop loss, when set (decision 048): the whole position closes at the market when the price named reaches one. */
  tpsl: z
    .object({ stopId: z.string(), triggerBy: z.enum(CONTRACT_PRICE_SOURCES), takeProfit: z.string().nullable(), stopLoss: z.string().nullable() })
    .nullable(),
});
export type ContractPosition = z.infer<typeof positionSchema>;

export const contractOrderSchema = z.object({
  orderId: z.string(),
  symbolName: z.string(),
  contract_type: z.union([z.literal(1), z.literal(2)]),
  direction: z.enum(["1", "2", "3", "4"]),
  type: z.enum(["limit", "market"]),
  tif: z.string(),
  price: z.string().nullable(),
  quantity: z.string(),
  filled: z.string(),
  leverage: z.number().int(),
  status: z.enum(["open", "filled", "cancelled"]),
  reason: z.string().nullable(),
  /** The average price of its fills, fees and realised profit (settlement coin). */
  averagePrice: z.string().nullable(),
  fee: z.string(),
  realised: z.string(),
  createdAt: z.string(),
});
export type ContractOrder = z.infer<typeof contractOrderSchema>;

/**
 * A member's conditional order (decision 048): a stop order (its `quantity` and `triggerPrice`)
 * or a position's take profit and stop loss (`quantity` null: the whole position; `takeProfit`,
 * `stopLoss` or both). `waiting`, then `triggered` (its
 * order, same id, is in the orders), `failed` (`reason`: why its order was refused) or `cancelled`.
 */
export const contractStopSchema = z.object({
  stopId: z.string(),
  symbolName: z.string(),
  contract_type: z.union([z.literal(1), z.literal(2)]),
  direction: z.enum(["1", "2", "3", "4"]),
  type: z.enum(["limit", "market"]),
  price: z.string().nullable(),
  quantity: z.string().nullable(),
  triggerBy: z.enum(CONTRACT_PRICE_SOURCES),
  triggerPrice: z.string().nullable(),
  takeProfit: z.string().nullable(),
  stopLoss: z.string().nullable(),
  status: z.enum(["waiting", "triggered", "failed", "cancelled"]),
  reason: z.string().nullable(),
  firedPrice: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContractStop = z.infer<typeof contractStopSchema>;

const contractAnswerSchema = z.object({
  orderId: z.string(),
  /** `waiting`: a stop order, placed once its trigger is reached. */
  status: z.enum(["open", "filled", "cancelled", "waiting"]),
  filled: z.string(),
  remaining: z.string(),
  trades: z.number().int(),
});

/** A settlement coin's own accounts: its insurance fund, the fees collected, the deficit not yet covered. */
const contractFundsSchema = z.object({ coin: z.string(), insurance: z.string(), fees: z.string(), deficit: z.string() });
export type ContractFunds = z.infer<typeof contractFundsSchema>;

export const contractEndpoints = {
  /** The contracts listed, with their rules and risk-limit tables (public). `type` narrows to one kind. */
  getContract: define({
    method: "GET",
    path: "coin/open/getContract",
    query: z.object({ type: contractTypeField.optional() }),
    response: z.array(contractInfoSchema),
  }),
  /** A contract's mark, index, funding rate and the time it is paid (public). */
  getFundingRate: define({
    method: "GET",
    path: "coin/open/getFundingRate",
    query: z.object({ symbolName: symbolField }),
    response: contractStateSchema,
  }),
  /**
   * Everything a contract's trading page shows of the market, in one read (public; not in the
   * spec, which leaves the contract page's market data "not shown"): its rules, its prices and
   * funding, the top of its book and its latest trades (quantities in whole contracts).
   */
  contractGoods: define({
    method: "GET",
    path: "coin/open/contract/goods",
    query: z.object({
      symbolName: symbolField,
      levels: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less")).optional(),
    }),
    response: z.object({ info: contractInfoSchema, state: contractStateSchema, depth: depthSchema, trades: z.array(publicTradeSchema) }),
  }),
  /**
   * A contract's candles of its last price (volume in contracts, turnover in the settlement coin)
   * or of its mark price (no volume), oldest first, ending at `to` (ms, default now; public).
   */
  contractKline: define({
    method: "GET",
    path: "coin/open/contract/kline",
    query: z.object({
      symbolName: symbolField,
      source: z.enum(CONTRACT_PRICE_SOURCES, { message: "must be last or mark" }).default("last"),
      period: periodField,
      to: millisString.optional(),
      limit: limitField(1000, 300),
    }),
    response: z.array(candleSchema),
  }),
  /** The live state of several contracts of one type (public; spec §7 `get/contractDetail`). */
  contractDetail: define({
    method: "POST",
    path: "coin/open/get/contractDetail",
    body: z.object({ symbolNameList: z.array(symbolField).max(MAX_SYMBOLS_PER_LIST).default([]), type: contractTypeField }),
    response: z.array(contractStateSchema),
  }),
  /** A contract's risk-limit table: each band's largest value, leverage and maintenance rate (public; ubw or bbw). */
  maintenanceMargin: define({
    method: "GET",
    path: "coin/open/contract/:kind/maintenanceMargin",
    params: z.object({ kind: z.enum(["ubw", "bbw"], { message: "must be ubw or bbw" }) }),
    query: z.object({ symbolName: symbolField }),
    response: z.array(tierSchema),
  }),
  /**
   * Places a contract order: `open` with direction 1 or 2, `close` with 3 or 4 (a close never
   * exceeds the position and holds nothing); type 1 limit (with `price`), 2 market (within the
   * band around the mark, immediate or cancel). Opening orders take the member's leverage in the
   * contract (`updateLeverageRadio`). With `triggerPrice` it is a stop order (decision 048): it
   * waits, holding nothing, until the mark or the last price (`triggerBy`) reaches that price
   * from the side it is on now, and is then placed as described (refused then if it cannot be).
   */
  placeContractOrder: define({
    method: "POST",
    path: "coin/entrust/contract/:action/:type",
    params: z.object({
      action: z.enum(["open", "close"], { message: "must be open or close" }),
      type: z.enum(["1", "2"], { message: "must be 1 (limit) or 2 (market)" }),
    }),
    body: z.object({
      symbol: symbolField,
      direction: z.enum(["1", "2", "3", "4"], { message: "must be 1 or 2 (open long, short) or 3 or 4 (close long, short)" }),
      price: positiveDecimalField.optional(),
      num: contractsField,
      tif: z.enum(["GTC", "IOC", "FOK", "POST_ONLY"]).default("GTC"),
      triggerPrice: positiveDecimalField.optional(),
      triggerBy: triggerByField.default("mark"),
      idempotencyKey,
    }),
    response: contractAnswerSchema,
  }),
  /**
   * A position's take profit and stop loss (not in the spec, which leaves TP/SL "not shown";
   * decision 048): either or both, replacing those set before; when the `triggerBy` price reaches
   * one, the whole position closes at the market (its resting closes cancelled first).
   */
  setPositionTpsl: define({
    method: "POST",
    path: "coin/contract/position/tpsl",
    body: z
      .object({
        symbolName: symbolField,
        triggerBy: triggerByField.default("mark"),
        takeProfit: positiveDecimalField.optional(),
        stopLoss: positiveDecimalField.optional(),
        idempotencyKey,
      })
      .refine((b) => b.takeProfit !== undefined || b.stopLoss !== undefined, { message: "validation.tpsl_needed", path: ["takeProfit"] }),
    response: z.object({ stopId: z.string() }),
  }),
  /** The member's conditional orders of a type: `current` (waiting) or `history` (ended), newest first, by page. */
  contractStops: define({
    method: "GET",
    path: "coin/entrust/contract/stops/:type/:scope/:pageNo",
    params: z.object({
      type: contractTypeField,
      scope: z.enum(["current", "history"], { message: "must be current or history" }),
      pageNo: pageNoField,
    }),
    query: listQuery,
    response: z.object({ list: z.array(contractStopSchema), total: z.number().int() }),
  }),
  /**
   * Before placing an opening order (not in the spec, which leaves the preview "not shown"): where
   * the mark would liquidate the member's position after `num` contracts at `price` (the mark when
   * none: a market order), at their leverage, for a long and for a short. A side is null when the
   * member holds the other one (it must be closed first); a liquidation price of null: nowhere.
   */
  previewContractOrder: define({
    method: "GET",
    path: "coin/entrust/contract/preview",
    query: z.object({ symbolName: symbolField, num: contractsField, price: positiveDecimalField.optional() }),
    response: z.object({
      symbolName: z.string(),
      price: z.string(),
      leverage: z.number().int(),
      long: z.object({ liquidationPrice: z.string().nullable() }).nullable(),
      short: z.object({ liquidationPrice: z.string().nullable() }).nullable(),
    }),
  }),
  cancelContractOrder: define({
    method: "POST",
    path: "coin/entrust/contract/cancel",
    body: z.object({ orderId: orderIdField }),
    response: z.null(),
  }),
  /** The member's open positions of one contract type, valued at the mark. */
  myPositions: define({
    method: "GET",
    path: "coin/entrust/get/myPosition/:type",
    params: z.object({ type: contractTypeField }),
    response: z.array(positionSchema),
  }),
  /** The member's contract orders of a type: `current` (open) or `history` (ended), newest first, by page. */
  contractOrders: define({
    method: "GET",
    path: "coin/entrust/entrustlogContract/:type/:scope/:pageNo",
    params: z.object({
      type: contractTypeField,
      scope: z.enum(["current", "history"], { message: "must be current or history" }),
      pageNo: pageNoField,
    }),
    query: listQuery,
    response: z.object({ list: z.array(contractOrderSchema), total: z.number().int() }),
  }),
  /** The funding the member's positions of a type paid (negative) or received, newest first, by page (the spec leaves it "not shown"). */
  contractFunding: define({
    method: "GET",
    path: "coin/entrust/contract/funding/:type/:pageNo",
    params: z.object({ type: contractTypeField, pageNo: pageNoField }),
    query: listQuery,
    response: pageOf({
      /** The rate paid, as a fraction (0.0001 is 0.01 %). */
      rate: z.string(),
      mark: z.string(),
      /** In the settlement coin: negative paid, positive received. */
      amount: z.string(),
    }),
  }),
  /** The member's positions of a type that were liquidated or auto-deleveraged, newest first, by page. */
  contractLiquidations: define({
    method: "GET",
    path: "coin/entrust/contract/liquidations/:type/:pageNo",
    params: z.object({ type: contractTypeField, pageNo: pageNoField }),
    query: listQuery,
    response: pageOf({
      kind: z.enum(["liquidated", "deleveraged"]),
      /** The position's side (liquidations; a deleveraging names none). */
      side: z.enum(["long", "short"]).nullable(),
      qty: z.string(),
      /** Where it was closed: the bankruptcy price (liquidated) or the price taken over at (deleveraged). */
      price: z.string(),
      /** The mark that reached it (liquidations). */
      mark: z.string().nullable(),
    }),
  }),
  /**
   * CSV download of the member's contract trades (their fills) of a type, or of one contract: a
   * success is `text/csv` with `Content-Disposition: attachment` (not an envelope); a refusal is
   * an envelope. More than EXPORT_MAX_ROWS rows is refused.
   */
  exportContractTradeLog: define({
    method: "POST",
    path: "coin/entrust/exportContractTradeLog",
    body: contractExportBodySchema,
    response: z.string(),
  }),
  /** One-key close: the member's orders cancelled and positions closed at the market in the contracts named (all of the type when none). */
  closeAllPositions: define({
    method: "POST",
    path: "coin/entrust/contract/close/onekey",
    body: z.object({ oneKeySymbolNameList: z.array(symbolField).max(MAX_SYMBOLS_PER_LIST).default([]), contractType: contractTypeField, idempotencyKey }),
    response: z.object({ symbols: z.array(z.string()) }),
  }),
  /** The member's leverage in a contract (their next orders', and their position's), and the most its band allows. */
  contractLeverage: define({
    method: "GET",
    path: "coin/contract/leverage",
    query: z.object({ symbolName: symbolField }),
    response: z.object({ symbolName: z.string(), leverage: z.number().int(), maxLeverage: z.number().int(), marginMode: z.enum(["isolated", "cross"]) }),
  }),
  /**
   * The member's margin mode in a contract (decision 049; the spec leaves it "not shown"): isolated
   * or cross, changed only with no position and no open order there.
   */
  updateMarginMode: define({
    method: "POST",
    path: "coin/contract/marginMode",
    body: z.object({ symbolName: symbolField, mode: z.enum(["isolated", "cross"], { message: "must be isolated or cross" }), idempotencyKey }),
    response: z.object({ symbolName: z.string(), marginMode: z.enum(["isolated", "cross"]) }),
  }),
  /** Sets the member's leverage in a contract (spec §7 `contract/updateLeverageRadio`). */
  updateLeverage: define({
    method: "POST",
    path: "coin/contract/updateLeverageRadio",
    body: z.object({
      symbolName: symbolField,
      leverage: z.coerce.number().int("must be a whole number").min(1, "must be 1 or more").max(125, "must be 125 or less"),
      idempotencyKey,
    }),
    response: z.object({ symbolName: z.string(), leverage: z.number().int() }),
  }),
  /**
   * Adds margin to a position (`amount` above 0) or takes some back (below 0): spec §7
   * `contract/updateBond`. A retry with the key answers the first change and moves nothing again.
   */
  updateBond: define({
    method: "POST",
    path: "coin/contract/updateBond",
    body: z.object({
      symbolName: symbolField,
      amount: decimalString.refine((v) => /[1-9]/.test(v), "validation.positive"),
      idempotencyKey,
    }),
    response: positionSchema,
  }),
  /**
   * Operator call (not in the spec): per settlement coin, its insurance fund, the fees collected and
   * the contracts' deficit nobody has covered yet (decision 048).
   */
  opsContractFunds: define({
    method: "GET",
    path: "/admin/contract/funds",
    operator: "markets.read",
    absolute: true,
    response: z.array(contractFundsSchema),
  }),
  /** Operator call (not in the spec): moves fees collected in a settlement coin into its insurance fund; the key makes a retry move nothing again. */
  adminFundInsurance: define({
    method: "POST",
    path: "/admin/contract/insurance",
    operator: "markets.change",
    absolute: true,
    body: z.object({ coin: coinField, amount: positiveDecimalField, idempotencyKey }),
    response: contractFundsSchema,
  }),
  /** Operator call (not in the spec): every contract with its rules and live state (the console, the CLI). */
  opsContracts: define({
    method: "GET",
    path: "/admin/contracts",
    operator: "markets.read",
    absolute: true,
    response: z.array(z.object({ info: contractInfoSchema, state: contractStateSchema })),
  }),
  /**
   * Operator call (not in the spec): halt or resume a contract, change its fees (basis points),
   * order limits (whole contracts) or price band (a fraction, at most 0.5), from the next order.
   */
  adminContractRules: define({
    method: "POST",
    path: "/admin/contract/rules",
    operator: "markets.change",
    absolute: true,
    body: z
      .object({
        symbol: symbolField,
        halted: z.boolean().optional(),
        makerFeeBps: z.number().int().min(0).max(1_000).optional(),
        takerFeeBps: z.number().int().min(0).max(1_000).optional(),
        minQty: contractsField.optional(),
        maxQty: contractsField.optional(),
        priceBand: positiveDecimalField.optional(),
      })
      .refine((b) => Object.keys(b).some((k) => k !== "symbol"), "give halted, makerFeeBps, takerFeeBps, minQty, maxQty or priceBand"),
    response: contractInfoSchema,
  }),
};
