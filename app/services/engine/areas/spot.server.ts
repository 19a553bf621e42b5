import { endpoints } from "#protocol/endpoints";
import { ACCOUNT_CODES, type OpenAccountName } from "#protocol/accounts";
import type { EngineCall } from "../call.server";
import type { EndpointInput } from "../endpoint-input";

type Input<E extends keyof typeof endpoints> = EndpointInput<(typeof endpoints)[E]>;

/** Spot trading: orders, balances and the member's order history. */
export function spotArea(call: EngineCall) {
  return {
    /** Places an order: `type` 1 limit, 2 market, 3 stop (see the endpoint). */
    place: (order: { type: Input<"placeOrder">["params"]["type"]; body: Input<"placeOrder">["body"] }) =>
      call(endpoints.placeOrder, { params: { type: order.type }, body: order.body }),
    cancel: (orderId: string) => call(endpoints.cancelOrder, { body: { orderId } }),
    balances: (account: OpenAccountName) => call(endpoints.balances, { query: { type: ACCOUNT_CODES[account] } }),
    /** Open (`current`) or finished (`history`) orders, a page of them, filtered. */
    orders: (scope: Input<"myOrders">["params"]["scope"], query: Input<"myOrders">["query"]) => call(endpoints.myOrders, { params: { scope }, query }),
    trades: (page: { pageNo: number; pageSize: number }, query: Input<"myTrades">["query"]) =>
      call(endpoints.myTrades, { params: { pageNo: String(page.pageNo), pageSize: String(page.pageSize), market: "spot" }, query }),
    /** One order with a page of its trades. */
    order: (id: string, page: { pageNo: number; pageSize: number }) =>
      call(endpoints.orderDetails, { params: { orderId: id }, query: { pageNo: String(page.pageNo), pageSize: String(page.pageSize) } }),
    /** The symbols the member has orders in (the filter's choices). */
    orderSymbols: () => call(endpoints.orderSymbols, { body: {} }),
  };
}
