import type { LoaderFunctionArgs } from "@remix-run/node";
import { entrustSearch, parseEntrustQuery } from "~/lib/forms/entrust";
import { EngineRefusal } from "~/services/api.server";
import { requireMember } from "~/services/auth.server";
import { orUnavailable } from "~/services/errors.server";
import { downloadSpotExport } from "~/services/order-history.server";
import { redirectWithToast } from "~/services/toast.server";

/**
 * CSV download of what a tab of the spot orders page shows, for its filter (a resource route:
 * the engine's file is streamed through). A refusal goes back to the page with a toast.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request);
  const { filter, errors } = parseEntrustQuery(new URL(request.url).searchParams);
  const back = `/account/entrust/spot${entrustSearch(filter)}`;
  if (errors) return redirectWithToast(request, back, { type: "error", key: "validation.entrust_filter" });
  try {
    return await orUnavailable(request, downloadSpotExport(request, member, filter));
  } catch (error) {
    if (error instanceof EngineRefusal && error.outcome.kind !== "logout") {
      return redirectWithToast(request, back, { type: "error", message: error.message });
    }
    throw error;
  }
}
