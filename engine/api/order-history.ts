import { endpoints } from "../../protocol/endpoints";
import { exportBodySchema } from "../../protocol/endpoints/order-history";
import type { OrderHistoryService } from "../spot/order-history-service";
import type { ApiContext } from "./context";
import { memberCsvExport } from "./csv-export";
import { memberEndpoint } from "./member-endpoint";

/**
 * A member's spot orders, trades and CSV export (spec §7 "Orders"; shapes in
 * docs/decisions/010-spot-order-history-api.md). Every call is scoped to the calling member
 * (`OrderHistoryService`): another member's order answers exactly like a missing one, and each
 * waits until the tables include the member's last command.
 */
export function registerOrderHistoryRoutes(api: ApiContext, history: OrderHistoryService): void {
  memberEndpoint(api, endpoints.myOrders, ({ params, query, memberId }) => history.orders(memberId, params.scope, query));
  memberEndpoint(api, endpoints.myTrades, ({ params, query, memberId }) =>
    history.trades(memberId, query, { pageNo: params.pageNo, pageSize: params.pageSize }),
  );
  memberEndpoint(api, endpoints.orderDetails, ({ params, query, memberId }) => history.order(memberId, params.orderId, query));
  memberEndpoint(api, endpoints.orderSymbols, ({ memberId }) => history.symbols(memberId));

  memberCsvExport(api, endpoints.exportSpotTradeLog, exportBodySchema, ({ body, memberId, now }) => history.export(memberId, body, now));
}
