import { redirect } from "@remix-run/node";
import { endpoints, fillPath } from "#protocol/endpoints";
import { ENTRUST_PAGE_SIZE, SCOPE_OF_TAB, engineFilter, type EntrustFilter } from "~/lib/forms/entrust";
import { engineHeaders, EngineRefusal, EngineUnreachable, REQUEST_TIMEOUT_MS } from "./api.server";
import { interpretResponse } from "./api-response";
import { callAsMember, clientOf, logOutHeaders, type MemberContext } from "./auth.server";
import { webEnv } from "./env.server";
import { detectLanguage } from "./i18n.server";
import { toastHeader } from "./toast.server";

/** The rows of one tab of the spot orders page, and the symbols of the filter. */
export async function loadSpotOrders(request: Request, member: MemberContext, filter: EntrustFilter) {
  const query = engineFilter(filter);
  const [symbols, rows] = await Promise.all([
    callAsMember(request, member, endpoints.orderSymbols, { body: {} }),
    filter.tab === "trades"
      ? callAsMember(request, member, endpoints.myTrades, { params: { pageNo: filter.page, pageSize: ENTRUST_PAGE_SIZE, market: "spot" }, query }).then(
          (page) => ({ kind: "trades" as const, page }),
        )
      : callAsMember(request, member, endpoints.myOrders, {
          params: { x: SCOPE_OF_TAB[filter.tab] },
          query: { ...query, pageNo: filter.page, pageSize: ENTRUST_PAGE_SIZE },
        }).then((page) => ({ kind: "orders" as const, page })),
  ]);
  return { symbols, rows };
}

/**
 * The engine's CSV of a tab, streamed through to the browser as a download. A refusal (too many
 * rows) is thrown as `EngineRefusal`; an expired login logs out like every member call.
 */
export async function downloadSpotExport(request: Request, member: MemberContext, filter: EntrustFilter): Promise<Response> {
  const env = webEnv();
  const lang = await detectLanguage(request);
  const url = new URL(`/api/${env.API_HEAD}/${fillPath(endpoints.exportSpotTradeLog.path)}`, env.ENGINE_URL);
  const headers = { ...engineHeaders({ lang, token: member.auth.accessToken, client: clientOf(request) }), accept: "text/csv, application/json", "content-type": "application/json" };
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
    for (const cookie of member.headers.getSetCookie()) out.append("set-cookie", cookie);
    return new Response(response.body, { status: 200, headers: out });
  }
  const payload = await response.json().catch(() => null);
  if (response.status > 500 && payload === null) throw new EngineUnreachable(`HTTP ${response.status}`);
  const outcome = interpretResponse(response.status, payload);
  if (outcome.kind === "logout") {
    const out = await logOutHeaders(request);
    out.append("set-cookie", await toastHeader(request, { type: "info", key: "auth.session_expired" }));
    throw redirect("/home/index", { headers: out });
  }
  throw new EngineRefusal(outcome.kind === "ok" ? { kind: "error", code: 502, message: null } : outcome);
}
