import { Readable } from "node:stream";
import { ResultCode } from "../../protocol/result-codes";
import { endpoints } from "../../protocol/endpoints";
import { EXPORT_MAX_ROWS, exportBodySchema, HISTORY_PAGE_SIZE_DEFAULT } from "../../protocol/endpoints/order-history";
import { csvRecord } from "../core/reports/csv";
import { exportFilename, ORDER_CSV_HEADER, orderCsvFields, TRADE_CSV_HEADER, tradeCsvFields } from "../core/spot/order-history-view";
import type { SpotService } from "../spot/spot-service";
import { countOrders, countTrades, eachOrder, eachTrade, findOrder, listOrders, listTrades, orderSymbols, tradesOfOrder } from "../spot/order-history-report";
import type { ApiContext } from "./context";
import { parse } from "./register";
import { requestLanguage } from "../locales/engine-texts";
import { Refusal } from "../locales/refusal";
import { memberEndpoint, resolveMember } from "./member-endpoint";

/**
 * A member's spot orders, trades and CSV export (spec §7 "Orders"; shapes in
 * docs/decisions/010-spot-order-history-api.md). Every query is scoped to the calling member:
 * another member's order answers exactly like a missing one. The tables are written behind the
 * answer (decision 017): each query first waits until they include the member's last command,
 * so a member reads back what they were just answered.
 */
export function registerOrderHistoryRoutes(api: ApiContext, spot: SpotService): void {
  const { app, apiHead, db } = api;
  const paging = (q: { pageNo?: number; pageSize?: number }) => ({ pageNo: q.pageNo ?? 1, pageSize: q.pageSize ?? HISTORY_PAGE_SIZE_DEFAULT });

  memberEndpoint(api, endpoints.myOrders, async ({ params, query, memberId }) => {
    await spot.durable.projectedFor(memberId);
    const { pageNo, pageSize, ...filter } = query;
    return listOrders(db, memberId, params.scope, filter, paging({ pageNo, pageSize }));
  });

  memberEndpoint(api, endpoints.myTrades, async ({ params, query, memberId }) => {
    await spot.durable.projectedFor(memberId);
    return listTrades(db, memberId, query, { pageNo: params.pageNo, pageSize: params.pageSize });
  });

  memberEndpoint(api, endpoints.orderDetails, async ({ params, query, memberId }) => {
    await spot.durable.projectedFor(memberId);
    const order = await findOrder(db, memberId, params.orderId);
    if (!order) throw Refusal.of(ResultCode.NOT_FOUND, "orders.not_found");
    return { order, trades: await tradesOfOrder(db, memberId, params.orderId, paging(query)) };
  });

  memberEndpoint(api, endpoints.orderSymbols, async ({ memberId }) => {
    await spot.durable.projectedFor(memberId);
    return orderSymbols(db, memberId);
  });

  // The export answers a file, not an envelope, so it is registered by hand (refusals stay envelopes).
  app.post(`/api/${apiHead}/${endpoints.exportSpotTradeLog.path}`, async (request, reply) => {
    const body = parse(exportBodySchema, request.body ?? {}, "body", requestLanguage(request.headers));
    const { memberId, now } = await resolveMember(api, request);
    await spot.durable.projectedFor(memberId);
    const { scope, ...filter } = body;
    const total = scope === "trades" ? await countTrades(db, memberId, filter) : await countOrders(db, memberId, scope, filter);
    if (total > EXPORT_MAX_ROWS) {
      throw Refusal.of(ResultCode.BAD_REQUEST, "orders.export_too_many", { max: EXPORT_MAX_ROWS.toLocaleString("en") });
    }
    async function* lines() {
      if (scope === "trades") {
        yield csvRecord(TRADE_CSV_HEADER);
        for await (const trade of eachTrade(db, memberId, filter)) yield csvRecord(tradeCsvFields(trade));
      } else {
        yield csvRecord(ORDER_CSV_HEADER);
        for await (const order of eachOrder(db, memberId, scope, filter)) yield csvRecord(orderCsvFields(order));
      }
    }
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${exportFilename(scope, filter, now)}"`)
      .header("cache-control", "no-store")
      .header("x-content-type-options", "nosniff")
      .send(Readable.from(lines()));
  });
}
