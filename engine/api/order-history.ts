import { Readable } from "node:stream";
import { describeIssues } from "../../protocol/envelope";
import { endpoints } from "../../protocol/endpoints";
import { EXPORT_MAX_ROWS, exportBodySchema, HISTORY_PAGE_SIZE_DEFAULT } from "../../protocol/endpoints/order-history";
import { csvRecord } from "../core/reports/csv";
import { exportFilename, ORDER_CSV_HEADER, orderCsvFields, TRADE_CSV_HEADER, tradeCsvFields } from "../core/spot/order-history-view";
import type { SpotService } from "../spot/spot-service";
import { countOrders, countTrades, eachOrder, eachTrade, findOrder, listOrders, listTrades, orderSymbols, tradesOfOrder } from "../spot/order-history-report";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { engineText, requestLanguage } from "./engine-texts";
import { requireMember } from "./members/require-member";
import { registerEndpoint } from "./register";

/**
 * A member's spot orders, trades and CSV export (spec §7 "Orders"; shapes in
 * docs/decisions/010-spot-order-history-api.md). Every query is scoped to the calling member:
 * another member's order answers exactly like a missing one. The tables are written behind the
 * answer (decision 017): each query first waits until they include the member's last command,
 * so a member reads back what they were just answered.
 */
export function registerOrderHistoryRoutes({ app, apiHead, db, services }: ApiContext, spot: SpotService): void {
  const paging = (q: { pageNo?: number; pageSize?: number }) => ({ pageNo: q.pageNo ?? 1, pageSize: q.pageSize ?? HISTORY_PAGE_SIZE_DEFAULT });

  registerEndpoint(app, apiHead, endpoints.myOrders, async ({ params, query, request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    await spot.durable.projectedFor(memberId);
    const { pageNo, pageSize, ...filter } = query;
    return listOrders(db, memberId, params.x, filter, paging({ pageNo, pageSize }));
  });

  registerEndpoint(app, apiHead, endpoints.myTrades, async ({ params, query, request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    await spot.durable.projectedFor(memberId);
    return listTrades(db, memberId, query, { pageNo: params.pageNo, pageSize: params.pageSize });
  });

  registerEndpoint(app, apiHead, endpoints.orderDetails, async ({ params, query, request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    await spot.durable.projectedFor(memberId);
    const order = await findOrder(db, memberId, params.id);
    if (!order) throw ApiError.notFound(engineText(requestLanguage(request.headers), "orders.not_found"));
    return { order, trades: await tradesOfOrder(db, memberId, params.id, paging(query)) };
  });

  registerEndpoint(app, apiHead, endpoints.orderSymbols, async ({ request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    await spot.durable.projectedFor(memberId);
    return orderSymbols(db, memberId);
  });

  // The export answers a file, not an envelope, so it is registered by hand (refusals stay envelopes).
  app.post(`/api/${apiHead}/${endpoints.exportSpotTradeLog.path}`, async (request, reply) => {
    const parsed = exportBodySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw ApiError.badRequest(`Invalid body: ${describeIssues(parsed.error.issues)}`);
    const { memberId } = await requireMember(db, request, services.now());
    await spot.durable.projectedFor(memberId);
    const { scope, ...filter } = parsed.data;
    const total = scope === "trades" ? await countTrades(db, memberId, filter) : await countOrders(db, memberId, scope, filter);
    if (total > EXPORT_MAX_ROWS) {
      throw ApiError.badRequest(engineText(requestLanguage(request.headers), "orders.export_too_many", { max: EXPORT_MAX_ROWS.toLocaleString("en") }));
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
      .header("content-disposition", `attachment; filename="${exportFilename(scope, filter, services.now())}"`)
      .header("cache-control", "no-store")
      .header("x-content-type-options", "nosniff")
      .send(Readable.from(lines()));
  });
}
