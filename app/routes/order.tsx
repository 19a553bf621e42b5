import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { namedRouteTarget } from "~/lib/notice-links";

/**
 * The named route `order` (spec §2: notifications link to it with `serviceType` and `orderCode`):
 * goes to the page that shows what the notification is about (app/lib/notice-links.ts).
 */
export function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  return redirect(namedRouteTarget(query.get("serviceType"), query.get("orderCode")));
}
