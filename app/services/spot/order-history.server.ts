import { endpoints } from "#protocol/endpoints";
import { ENTRUST_PAGE_SIZE, SCOPE_OF_TAB, engineFilter, type EntrustFilter } from "~/lib/forms/entrust";
import type { MemberEngine } from "../engine/client.server";
import { downloadEngineCsv } from "../engine/csv-download.server";

/** The rows of one tab of the spot orders page, and the symbols of the filter. */
export async function loadSpotOrders(engine: MemberEngine, filter: EntrustFilter) {
  const query = engineFilter(filter);
  const page = { pageNo: filter.page, pageSize: ENTRUST_PAGE_SIZE };
  const [symbols, rows] = await Promise.all([
    engine.spot.orderSymbols(),
    filter.tab === "trades"
      ? engine.spot.trades(page, query).then((found) => ({ kind: "trades" as const, page: found }))
      : engine.spot
          .orders(SCOPE_OF_TAB[filter.tab], { ...query, pageNo: String(page.pageNo), pageSize: String(page.pageSize) })
          .then((found) => ({ kind: "orders" as const, page: found })),
  ]);
  return { symbols, rows };
}

/** The engine's CSV of a tab of the spot orders page, for its filter, as a download. */
export function downloadSpotExport(engine: MemberEngine, filter: EntrustFilter): Promise<Response> {
  return downloadEngineCsv(engine, endpoints.exportSpotTradeLog, { scope: SCOPE_OF_TAB[filter.tab], ...engineFilter(filter) }, "spot-orders.csv");
}
