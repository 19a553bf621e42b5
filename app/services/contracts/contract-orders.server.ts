import { endpoints } from "#protocol/endpoints";
import { EngineRefusal } from "../engine/api.server";
import { downloadEngineCsv } from "../engine/csv-download.server";
import { redirectWithToast } from "../platform/toast.server";
import type { MemberEngine } from "../engine/client.server";
import { CONTRACT_ORDER_TABS, type ContractOrderTab } from "~/lib/contract-choices";
import { cancelOrderSchema, ENTRUST_PAGE_SIZE } from "~/lib/forms/entrust";

/** The orders area's contract kinds (spec §2 `future/u`, `future/coin`) and the API's contract type of each. */
export const CONTRACT_KINDS = { u: "1", coin: "2" } as const;
export type ContractKind = keyof typeof CONTRACT_KINDS;

const SYMBOL = /^[A-Z0-9]{1,12}_[A-Z0-9]{1,12}$/;
const notFound = () => new Response("Not found", { status: 404 });

/**
 * A member's contract lists of one kind (issue 30): open orders, the order history, the waiting
 * and the ended stop orders with take profit and stop loss (decision 048), the funding
 * their positions paid or received, and their positions liquidated or deleveraged; newest first, a
 * page at a time, narrowed to one contract when the filter names one of the kind (any other value
 * shows all, with the filter cleared). An unknown kind is a 404.
 */
export async function loadContractOrders(engine: MemberEngine, kindParam: string) {
  if (!(kindParam in CONTRACT_KINDS)) throw notFound();
  const kind = kindParam as ContractKind;
  const type = CONTRACT_KINDS[kind];
  const params = new URL(engine.request.url).searchParams;
  const tab: ContractOrderTab = CONTRACT_ORDER_TABS.find((one) => one === params.get("tab")) ?? "open";
  const pageText = params.get("page") ?? "1";
  const page = /^[1-9]\d{0,4}$/.test(pageText) ? Number(pageText) : 1;
  const contracts = (await engine.contractMarket.list(type)).map((c) => c.symbolName);
  const asked = params.get("symbol") ?? "";
  const symbol = SYMBOL.test(asked) && contracts.includes(asked.replace("_", "/")) ? asked : null;
  const query = { pageSize: String(ENTRUST_PAGE_SIZE), ...(symbol ? { symbol } : {}) };
  const list =
    tab === "funding"
      ? { tab, ...(await engine.contracts.funding(type, page, query)) }
      : tab === "liquidations"
        ? { tab, ...(await engine.contracts.liquidations(type, page, query)) }
        : tab === "stops"
          ? { tab, ...(await engine.contracts.stops(type, "current", page, query)) }
          : tab === "stop_history"
            ? { tab, ...(await engine.contracts.stops(type, "history", page, query)) }
            : { tab, ...(await engine.contracts.orders(type, tab === "open" ? "current" : "history", page, query)) };
  return { kind, tab, page, symbol, contracts, list, total: list.total, pages: Math.max(1, Math.ceil(list.total / ENTRUST_PAGE_SIZE)) };
}

/** Cancels one open contract order, then the same page again with a toast (with or without JavaScript). */
export async function cancelContractOrder(engine: MemberEngine, back: string) {
  const { request } = engine;
  const submission = cancelOrderSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!submission.success) return redirectWithToast(request, back, { type: "error", key: "errors.unknown" });
  const done = await engine.attempt(() => engine.contracts.cancel(submission.data.orderId));
  return redirectWithToast(request, back, done.ok ? { type: "success", key: "entrust.cancelled" } : { type: "error", message: done.message ?? undefined });
}

/**
 * The CSV of the member's contract trades of a kind, or of the contract the filter names (a
 * resource route streams the engine's file through); a refusal (too many rows) goes back to the
 * orders page with a toast.
 */
export async function downloadContractTrades(engine: MemberEngine, kindParam: string) {
  if (!(kindParam in CONTRACT_KINDS)) throw notFound();
  const kind = kindParam as ContractKind;
  const asked = new URL(engine.request.url).searchParams.get("symbol") ?? "";
  const symbol = SYMBOL.test(asked) ? asked : null;
  const back = `/account/entrust/future/${kind}?tab=history${symbol ? `&symbol=${symbol}` : ""}`;
  try {
    return await downloadEngineCsv(
      engine,
      endpoints.exportContractTradeLog,
      { type: CONTRACT_KINDS[kind], ...(symbol ? { symbol } : {}) },
      "contract-trades.csv",
    );
  } catch (error) {
    if (error instanceof EngineRefusal) return redirectWithToast(engine.request, back, { type: "error", message: error.message });
    throw error;
  }
}
