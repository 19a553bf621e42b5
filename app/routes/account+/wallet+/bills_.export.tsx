import type { LoaderFunctionArgs } from "@remix-run/node";
import { EngineRefusal } from "~/services/engine/api.server";
import { withMember } from "~/services/engine/route.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { billFilterOf, downloadBills } from "~/services/wallet/wallet.server";

/**
 * CSV download of the bill lines the bills page shows for its filter (a resource route: the
 * engine's file is streamed through). A bad filter or a refusal (too many lines) goes back to the
 * page with a toast.
 */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine, request }) => {
    const { values, filter } = billFilterOf(new URL(request.url).searchParams);
    const back = `/account/wallet/bills?${new URLSearchParams(values).toString()}`;
    if (!filter) return redirectWithToast(request, back, { type: "error", key: "wallet.bills.bad_filter" });
    try {
      return await downloadBills(engine, filter);
    } catch (error) {
      if (error instanceof EngineRefusal) return redirectWithToast(request, back, { type: "error", message: error.message });
      throw error;
    }
  });
}
