import type { LoaderFunctionArgs } from "@remix-run/node";
import { entrustSearch, parseEntrustQuery } from "~/lib/forms/entrust";
import { downloadSpotExport } from "~/services/spot/order-history.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { EngineRefusal } from "~/services/engine/api.server";
import { withMember } from "~/services/engine/route.server";

/**
 * CSV download of what a tab of the spot orders page shows, for its filter (a resource route:
 * the engine's file is streamed through). A refusal goes back to the page with a toast.
 */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine, request }) => {
    const { filter, errors } = parseEntrustQuery(new URL(request.url).searchParams);
    const back = `/account/entrust/spot${entrustSearch(filter)}`;
    if (errors) return redirectWithToast(request, back, { type: "error", key: "validation.entrust_filter" });
    try {
      return await downloadSpotExport(engine, filter);
    } catch (error) {
      if (error instanceof EngineRefusal) return redirectWithToast(request, back, { type: "error", message: error.message });
      throw error;
    }
  });
}
