import { endpoints } from "#protocol/endpoints";
import type { KlinePeriod } from "#protocol/endpoints/market-data";
import type { EngineCall } from "../call.server";
import type { EndpointInput } from "../endpoint-input";
import { cachedContractRules, cachedContracts } from "../symbol-rules.server";

type Input<E extends keyof typeof endpoints> = EndpointInput<(typeof endpoints)[E]>;
/** 1 USDT-margined (ubw), 2 coin-margined (bbw). */
export type ContractTypeCode = "1" | "2";

/** Perpetual contracts' public reads: the list with rules, and one contract's market for its page. */
export function contractMarketArea(call: EngineCall) {
  return {
    /**
     * The contracts listed (of one type), with their rules, from the web tier's cache: what a list
     * of them shows (names, kinds, leverage) does not change under a listed contract; a contract's
     * own page reads its live state and halt with `goods`.
     */
    list: async (type?: ContractTypeCode) => {
      const all = await cachedContracts(() => call(endpoints.getContract, { query: {} }));
      return type ? all.filter((c) => String(c.contract_type) === type) : all;
    },
    /** Rules, prices and funding, book and trades of one contract; `symbol` as BTC_USDT. */
    goods: (symbol: string, levels?: number) =>
      call(endpoints.contractGoods, { query: { symbolName: symbol, levels: levels === undefined ? undefined : String(levels) } }),
    /** A contract's latest candles of its last or its mark price, oldest first. */
    candles: (symbol: string, source: "last" | "mark", period: KlinePeriod, limit: number) =>
      call(endpoints.contractKline, { query: { symbolName: symbol, source, period, limit: String(limit) } }),
    /** One contract's rules from the web tier's cache (for checking an order form: one engine call per order). */
    rules: (symbol: string) => cachedContractRules(symbol, () => call(endpoints.getContract, { query: {} })),
  };
}

/** A member's contracts: orders, positions, leverage, margin and the one-key close. */
export function contractsArea(call: EngineCall) {
  return {
    place: (action: "open" | "close", type: "1" | "2", body: Input<"placeContractOrder">["body"]) =>
      call(endpoints.placeContractOrder, { params: { action, type }, body }),
    /** Where an opening order of `num` contracts at `price` (the mark without one) would leave the liquidation price, long and short. */
    preview: (symbol: string, num: string, price?: string) =>
      call(endpoints.previewContractOrder, { query: { symbolName: symbol, num, ...(price !== undefined ? { price } : {}) } }),
    cancel: (orderId: string) => call(endpoints.cancelContractOrder, { body: { orderId } }),
    positions: (type: ContractTypeCode) => call(endpoints.myPositions, { params: { type } }),
    orders: (type: ContractTypeCode, scope: "current" | "history", pageNo: number, query: Input<"contractOrders">["query"] = {}) =>
      call(endpoints.contractOrders, { params: { type, scope, pageNo: String(pageNo) }, query }),
    /** The member's stop orders and take profit / stop loss of a type: waiting (`current`) or ended (`history`). */
    stops: (type: ContractTypeCode, scope: "current" | "history", pageNo: number, query: Input<"contractStops">["query"] = {}) =>
      call(endpoints.contractStops, { params: { type, scope, pageNo: String(pageNo) }, query }),
    /** A position's take profit and stop loss (either or both), replacing those set before. */
    setTpsl: (body: Input<"setPositionTpsl">["body"]) => call(endpoints.setPositionTpsl, { body }),
    /** The funding the member's positions of a type paid or received, a page at a time. */
    funding: (type: ContractTypeCode, pageNo: number, query: Input<"contractFunding">["query"] = {}) =>
      call(endpoints.contractFunding, { params: { type, pageNo: String(pageNo) }, query }),
    /** The member's positions of a type liquidated or auto-deleveraged, a page at a time. */
    liquidations: (type: ContractTypeCode, pageNo: number, query: Input<"contractLiquidations">["query"] = {}) =>
      call(endpoints.contractLiquidations, { params: { type, pageNo: String(pageNo) }, query }),
    leverage: (symbol: string) => call(endpoints.contractLeverage, { query: { symbolName: symbol } }),
    setLeverage: (symbol: string, leverage: number, idempotencyKey: string) =>
      call(endpoints.updateLeverage, { body: { symbolName: symbol, leverage, idempotencyKey } }),
    /** The member's margin mode in a contract: isolated or cross (decision 049). */
    setMarginMode: (symbol: string, mode: "isolated" | "cross", idempotencyKey: string) =>
      call(endpoints.updateMarginMode, { body: { symbolName: symbol, mode, idempotencyKey } }),
    /** Adds margin to the position (a positive amount) or takes some back (negative). */
    changeMargin: (symbol: string, amount: string, idempotencyKey: string) =>
      call(endpoints.updateBond, { body: { symbolName: symbol, amount, idempotencyKey } }),
    closeAll: (type: ContractTypeCode, symbols: string[], idempotencyKey: string) =>
      call(endpoints.closeAllPositions, { body: { contractType: type, oneKeySymbolNameList: symbols, idempotencyKey } }),
  };
}
