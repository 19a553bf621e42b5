import * as z from "zod";
import { define, intString } from "../endpoint";
import { idempotencyKeyField as idempotencyKey, MAX_SYMBOLS_PER_LIST, orderIdField, positiveDecimalField, slashSymbolField as symbolField } from "../fields";
import { decimalString } from "../money";
import { depthSchema, publicTradeSchema } from "./market-data";

/**
 * Perpetual contracts (issue 30, spec §7; decision 046). Contract type 1 is USDT-margined (ubw,
 * linear: margin and profit in USDT), 2 coin-margined (bbw, inverse: a contract is a face value
 * in US dollars, margin and profit in the coin). Prices are decimal texts at the contract's price
 * scale, quantities whole contracts, money in the settlement coin; rates are decimal fractions
 * (0.0001 is 0.01 %).
 */
export const CONTRACT_TYPES = { "1": "linear", "2": "inverse" } as const;
const contractTypeField = z.enum(["1", "2"], { message: "must be 1 (USDT-margined) or 2 (coin-margined)" });

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

/** Whole contracts: 1 to 10,000,000. */
const contractsField = z
  .string()
  .regex(/^[1-9]\d{0,7}$/, "validation.contracts")
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

const contractAnswerSchema = z.object({
  orderId: z.string(),
  status: z.enum(["open", "filled", "cancelled"]),
  filled: z.string(),
  remaining: z.string(),
  trades: z.number().int(),
});

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
   * contract (`updateLeverageRadio`).
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
      idempotencyKey,
    }),
    response: contractAnswerSchema,
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
      pageNo: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100_000, "must be 100000 or less")),
    }),
    query: z.object({
      symbol: symbolField.optional(),
      pageSize: intString.pipe(z.number().int().min(1, "must be 1 or more").max(100, "must be 100 or less")).optional(),
    }),
    response: z.object({ list: z.array(contractOrderSchema), total: z.number().int() }),
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
    response: z.object({ symbolName: z.string(), leverage: z.number().int(), maxLeverage: z.number().int() }),
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
