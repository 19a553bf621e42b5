import { endpoints } from "#protocol/endpoints";
import type { EngineCall } from "../call.server";

/** Crypto loans' products and calculator (decision 051): anyone's. */
export function loanMarketArea(call: EngineCall) {
  return {
    products: () => call(endpoints.pledgeProducts, {}),
    quote: (productId: string, figures: { amount?: string; collateral?: string }) => call(endpoints.pledgeQuote, { query: { productId, ...figures } }),
  };
}

/** A member's crypto loans (decision 051): borrows, repayments, collateral, their loans and records. */
export function pledgeArea(call: EngineCall) {
  return {
    borrow: (productId: string, amount: string, collateral: string, idempotencyKey: string) =>
      call(endpoints.pledgeBorrow, { body: { productId, amount, collateral, idempotencyKey } }),
    repay: (loanId: string, amount: string, idempotencyKey: string) => call(endpoints.pledgeRepay, { body: { loanId, amount, idempotencyKey } }),
    collateral: (loanId: string, amount: string, direction: "add" | "remove", idempotencyKey: string) =>
      call(endpoints.pledgeCollateral, { body: { loanId, amount, direction, idempotencyKey } }),
    loans: (status: "open" | "closed", pageNo: number, pageSize: number) =>
      call(endpoints.pledgeLoans, { params: { status, pageNo: String(pageNo), pageSize: String(pageSize) } }),
    loan: (loanId: string) => call(endpoints.pledgeLoan, { params: { loanId } }),
    records: (pageNo: number, pageSize: number, query: { loanId?: string } = {}) =>
      call(endpoints.pledgeRecords, { params: { pageNo: String(pageNo), pageSize: String(pageSize) }, query }),
  };
}
