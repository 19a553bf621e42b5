import { endpoints } from "#protocol/endpoints";
import { ENTRUST_PAGE_SIZE, SCOPE_OF_TAB, engineFilter, type EntrustFilter, type OrdersAccount } from "~/lib/forms/entrust";
import type { MemberEngine } from "../engine/client.server";
import { downloadEngineCsv } from "../engine/csv-download.server";

/**
 * The rows of one tab of an orders page (spot, or a margin account's: `all` cross, `fixed`
 * isolated), and the symbols of its filter: the markets the member has orders in on the spot
 * page, the margin pairs on a margin page.
 */
export async function loadOrdersPage(engine: MemberEngine, filter: EntrustFilter, account: OrdersAccount) {
  const query = engineFilter(filter, account);
  const page = { pageNo: filter.page, pageSize: ENTRUST_PAGE_SIZE };
  const [symbols, rows] = await Promise.all([
    account === "spot" ? engine.spot.orderSymbols() : engine.margin.pairs().then((found) => found.pairs.map((p) => p.symbolName)),
    rowsOf(engine, filter, account, query, page),
  ]);
  return { symbols, rows };
}

function rowsOf(
  engine: MemberEngine,
  filter: EntrustFilter,
  account: OrdersAccount,
  query: ReturnType<typeof engineFilter>,
  page: { pageNo: number; pageSize: number },
) {
  if (filter.tab === "trades") return engine.spot.trades(page, query).then((found) => ({ kind: "trades" as const, page: found }));
  if (filter.tab === "records" && account !== "spot") {
    return engine.margin
      .records(account, page.pageNo, page.pageSize, { symbolName: account === "fixed" ? filter.symbol : undefined, from: filter.from, to: filter.to })
      .then((found) => ({ kind: "records" as const, page: found }));
  }
  const scope = SCOPE_OF_TAB[filter.tab === "records" ? "open" : filter.tab];
  return engine.spot
    .orders(scope, { ...query, pageNo: String(page.pageNo), pageSize: String(page.pageSize) })
    .then((found) => ({ kind: "orders" as const, page: found }));
}

/** The engine's CSV of a tab of an orders page, for its filter, as a download. */
export function downloadOrdersExport(engine: MemberEngine, filter: EntrustFilter, account: OrdersAccount): Promise<Response> {
  if (filter.tab === "records" && account !== "spot") {
    const body = { mode: account, symbolName: account === "fixed" ? filter.symbol : undefined, from: filter.from, to: filter.to };
    return downloadEngineCsv(engine, endpoints.exportMarginRecords, body, "margin-records.csv");
  }
  const scope = SCOPE_OF_TAB[filter.tab === "records" ? "open" : filter.tab];
  return downloadEngineCsv(engine, endpoints.exportSpotTradeLog, { scope, ...engineFilter(filter, account) }, "orders.csv");
}
