import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { cancelOrderSchema, entrustSearch, ORDERS_PAGE, parseEntrustQuery, type FilterErrors, type OrdersAccount } from "~/lib/forms/entrust";
import { EngineRefusal } from "../engine/api.server";
import { withMember } from "../engine/route.server";
import { redirectWithToast } from "../platform/toast.server";
import { downloadOrdersExport, loadOrdersPage } from "./order-history.server";

/**
 * The loader, action and export of an orders page (spot, margin-all, margin-fixed): open orders,
 * order history, trades and, on a margin page, the account's records, filtered by a GET form.
 */
export function ordersPageLoader(args: LoaderFunctionArgs, account: OrdersAccount) {
  return withMember(args, async ({ engine, request }) => {
    const { filter, errors, values } = parseEntrustQuery(new URL(request.url).searchParams, ORDERS_PAGE[account].tabs);
    if (errors) {
      // A bad filter is answered on the page, next to its field, without asking the engine for rows.
      const symbols = account === "spot" ? await engine.spot.orderSymbols() : (await engine.margin.pairs()).pairs.map((p) => p.symbolName);
      return { account, filter, errors, values, symbols, rows: null };
    }
    const { symbols, rows } = await loadOrdersPage(engine, filter, account);
    return { account, filter, errors: null as FilterErrors | null, values, symbols, rows };
  });
}
export type OrdersPageData = Awaited<ReturnType<typeof ordersPageLoader>>;

/** Cancels one open order, then shows the same page again with a toast (with or without JavaScript). */
export function ordersPageAction(args: ActionFunctionArgs, account: OrdersAccount) {
  return withMember(args, async ({ engine, request }) => {
    const url = new URL(request.url);
    url.searchParams.delete("index");
    const back = `${ORDERS_PAGE[account].base}${url.search}`;
    const submission = cancelOrderSchema.safeParse(Object.fromEntries(await request.formData()));
    if (!submission.success) return redirectWithToast(request, back, { type: "error", key: "errors.unknown" });
    const done = await engine.attempt(() => engine.spot.cancel(submission.data.orderId));
    return redirectWithToast(request, back, done.ok ? { type: "success", key: "entrust.cancelled" } : { type: "error", message: done.message ?? undefined });
  });
}

/**
 * CSV download of what a tab of an orders page shows, for its filter (a resource route: the
 * engine's file is streamed through). A refusal goes back to the page with a toast.
 */
export function ordersExportLoader(args: LoaderFunctionArgs, account: OrdersAccount) {
  return withMember(args, async ({ engine, request }) => {
    const { filter, errors } = parseEntrustQuery(new URL(request.url).searchParams, ORDERS_PAGE[account].tabs);
    const back = `${ORDERS_PAGE[account].base}${entrustSearch(filter)}`;
    if (errors) return redirectWithToast(request, back, { type: "error", key: "validation.entrust_filter" });
    try {
      return await downloadOrdersExport(engine, filter, account);
    } catch (error) {
      if (error instanceof EngineRefusal) return redirectWithToast(request, back, { type: "error", message: error.message });
      throw error;
    }
  });
}
