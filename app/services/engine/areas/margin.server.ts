import { endpoints } from "#protocol/endpoints";
import type { MarginMode } from "#protocol/endpoints/margin";
import type { EngineCall } from "../call.server";
import { cachedMarginPair } from "../symbol-rules.server";

/** What a member's margin call names: a coin of the cross account, or of one isolated account (its symbol, BTC_USDT). */
export interface MarginTarget {
  mode: MarginMode;
  /** An isolated account's symbol (with `fixed`). */
  symbol?: string;
  coin: string;
}

const body = (t: MarginTarget) => ({ coin: t.coin, ...(t.mode === "fixed" && t.symbol ? { symbolName: t.symbol } : {}) });

/** A member's margin accounts (decision 050): their state, the pairs and rates, borrows, repayments, transfers and leverage. */
export function marginArea(call: EngineCall) {
  return {
    /** Cross and every isolated account. */
    property: () => call(endpoints.marginProperty, {}),
    pairs: () => call(endpoints.marginPairs, {}),
    /** A margin pair (BTC_USDT) from the web tier's cache, or null when the market is not on margin. */
    pair: (symbol: string) => cachedMarginPair(symbol, () => call(endpoints.marginPairs, {}).then((found) => found.pairs)),
    /** One margin account: cross (`all`), or the isolated account of a symbol (BTC_USDT). */
    account: (mode: MarginMode, symbol?: string) => call(endpoints.marginAccount, { params: { mode, symbol: mode === "all" ? "all" : (symbol ?? "") } }),
    rates: () => call(endpoints.marginRates, {}),
    borrow: (t: MarginTarget, amount: string, idempotencyKey: string) =>
      call(endpoints.borrow, { params: { mode: t.mode }, body: { ...body(t), amount, idempotencyKey } }),
    repay: (t: MarginTarget, amount: string, idempotencyKey: string) =>
      call(endpoints.repay, { params: { mode: t.mode }, body: { ...body(t), amount, idempotencyKey } }),
    transfer: (t: MarginTarget, direction: "in" | "out", amount: string, idempotencyKey: string) =>
      call(endpoints.marginTransfer, { params: { mode: t.mode }, body: { ...body(t), amount, direction, idempotencyKey } }),
    setLeverage: (symbol: string, leverage: number, idempotencyKey: string) =>
      call(endpoints.updateMarginLeverage, { body: { symbolName: symbol, leverage, idempotencyKey } }),
    records: (mode: MarginMode, pageNo: number, pageSize: number, query: { symbolName?: string; coin?: string; from?: string; to?: string } = {}) =>
      call(endpoints.marginRecords, { params: { mode, pageNo: String(pageNo), pageSize: String(pageSize) }, query }),
  };
}
