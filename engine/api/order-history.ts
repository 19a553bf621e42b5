import { Readable } from "node:stream";
import { endpoints } from "../../protocol/endpoints";
import { exportBodySchema } from "../../protocol/endpoints/order-history";
import type { OrderHistoryService } from "../spot/order-history-service";
import type { ApiContext } from "./context";
import { parse } from "./register";
import { requestLanguage } from "../locales/engine-texts";
import { memberEndpoint, resolveMember } from "./member-endpoint";

/**
 * A member's spot orders, trades and CSV export (spec §7 "Orders"; shapes in
 * docs/decisions/010-spot-order-history-api.md). Every call is scoped to the calling member
 * (`OrderHistoryService`): another member's order answers exactly like a missing one, and each
 * waits until the tables include the member's last command.
 */
export function registerOrderHistoryRoutes(api: ApiContext, history: OrderHistoryService): void {
  const { app, apiHead } = api;

  memberEndpoint(api, endpoints.myOrders, ({ params, query, memberId }) => history.orders(memberId, params.scope, query));
  memberEndpoint(api, endpoints.myTrades, ({ params, query, memberId }) =>
    history.trades(memberId, query, { pageNo: params.pageNo, pageSize: params.pageSize }),
  );
  memberEndpoint(api, endpoints.orderDetails, ({ params, query, memberId }) => history.order(memberId, params.orderId, query));
  memberEndpoint(api, endpoints.orderSymbols, ({ memberId }) => history.symbols(memberId));

  // The export answers a file, not an envelope, so it is registered by hand (refusals stay envelopes).
  app.post(`/api/${apiHead}/${endpoints.exportSpotTradeLog.path}`, async (request, reply) => {
    const body = parse(exportBodySchema, request.body ?? {}, "body", requestLanguage(request.headers));
    const { memberId, now } = await resolveMember(api, request);
    const file = await history.export(memberId, body, now);
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${file.filename}"`)
      .header("cache-control", "no-store")
      .header("x-content-type-options", "nosniff")
      .send(Readable.from(file.lines));
  });
}
