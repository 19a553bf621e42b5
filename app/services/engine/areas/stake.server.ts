import { endpoints } from "#protocol/endpoints";
import type { EngineCall } from "../call.server";

/** Staking's products (decision 052): anyone's. */
export function stakeMarketArea(call: EngineCall) {
  return {
    /** The enabled products, of one coin or all, with what is left of their caps. */
    products: (coin?: string) => call(endpoints.stakeProducts, { query: coin ? { coin } : {} }),
    coins: () => call(endpoints.stakeCoins, {}),
    product: (productId: string) => call(endpoints.stakeProduct, { params: { productId } }),
  };
}

/** A member's staking (decision 052): stakes, redemptions (with what they would pay, before), outstanding repayments and records. */
export function stakeArea(call: EngineCall) {
  return {
    invest: (productId: string, amount: string, idempotencyKey: string) => call(endpoints.stakeInvest, { body: { productId, amount, idempotencyKey } }),
    /** Redeems a stake: `amount` of a flexible one, or (without) the whole stake. */
    apply: (stakeId: string, amount: string | undefined, idempotencyKey: string) =>
      call(endpoints.stakeApply, { body: { stakeId, ...(amount ? { amount } : {}), idempotencyKey } }),
    preview: (stakeId: string, amount?: string) => call(endpoints.stakePreview, { params: { stakeId }, query: amount ? { amount } : {} }),
    stakes: (status: "running" | "ended", pageNo: number, pageSize: number, coin?: string) =>
      call(endpoints.memberStakes, { params: { status, pageNo: String(pageNo), pageSize: String(pageSize) }, query: coin ? { coin } : {} }),
    outstanding: () => call(endpoints.stakeOutstanding, {}),
    records: (pageNo: number, pageSize: number, query: { kind?: "invest" | "redeemed" | "matured" | "early"; coin?: string } = {}) =>
      call(endpoints.stakeRecords, { params: { pageNo: String(pageNo), pageSize: String(pageSize) }, query }),
  };
}
