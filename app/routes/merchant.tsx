import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { namedRouteTarget } from "~/lib/notice-links";

/**
 * The named route `merchant` (spec §2, with `serviceType` and `orderCode`). No merchant pages are
 * built yet, so it leads where `order` does: the member's own order or wallet page, else their
 * notifications (decision 031). When /merchant/index comes, this becomes its layout's redirect.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  return redirect(namedRouteTarget(query.get("serviceType"), query.get("orderCode")));
}
