import type { LoaderFunctionArgs } from "@remix-run/node";
import { ordersExportLoader } from "~/services/spot/orders-page.server";

/** CSV download of what a tab of the spot orders page shows, for its filter. */
export function loader(args: LoaderFunctionArgs) {
  return ordersExportLoader(args, "spot");
}
