import { endpoints, fillPath } from "#protocol/endpoints";
import { ENTRUST_PAGE_SIZE, SCOPE_OF_TAB, engineFilter, type EntrustFilter } from "~/lib/forms/entrust";
import { engineHeaders, EngineRefusal, EngineUnreachable, REQUEST_TIMEOUT_MS } from "../engine/api.server";
import { interpretResponse } from "../engine/api-response";
import { clientOf } from "../account/auth.server";
import type { MemberEngine } from "../engine/client.server";
import { webEnv } from "../platform/env.server";

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

/**
 * The engine's CSV of a tab, streamed through to the browser as a download (a success is not an
 * envelope, so this is the one call made outside the client's areas; `engine.guard` gives it the
 * client's rules). A refusal (too many rows) is thrown as `EngineRefusal`.
 */
export function downloadSpotExport(engine: MemberEngine, filter: EntrustFilter): Promise<Response> {
  return engine.guard(async () => {
    const env = webEnv();
    const url = new URL(`/api/${env.API_HEAD}/${fillPath(endpoints.exportSpotTradeLog.path)}`, env.ENGINE_URL);
    const headers = {
      ...engineHeaders({ lang: engine.lang, token: engine.token, client: clientOf(engine.request) }),
      accept: "text/csv, application/json",
      "content-type": "application/json",
    };
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ scope: SCOPE_OF_TAB[filter.tab], ...engineFilter(filter) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new EngineUnreachable(error);
    }
    if (response.ok && response.headers.get("content-type")?.startsWith("text/csv")) {
      // Only a name of safe characters is passed on (it becomes a file name on the member's disk).
      const disposition = response.headers.get("content-disposition") ?? "";
      const name = /^attachment; filename="([A-Za-z0-9._-]{1,120}\.csv)"$/.exec(disposition)?.[1] ?? "spot-orders.csv";
      const out = new Headers({
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      });
      return new Response(response.body, { status: 200, headers: out });
    }
    const payload = await response.json().catch(() => null);
    if (response.status > 500 && payload === null) throw new EngineUnreachable(`HTTP ${response.status}`);
    const outcome = interpretResponse(response.status, payload);
    throw new EngineRefusal(outcome.kind === "ok" ? { kind: "error", code: 502, message: null } : outcome);
  });
}
