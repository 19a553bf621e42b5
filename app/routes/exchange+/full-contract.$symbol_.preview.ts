import type { LoaderFunctionArgs } from "@remix-run/node";
import { contractPreview } from "~/services/contracts/contract-page.server";
import { withEngine } from "~/services/engine/route.server";

/**
 * The order form's live preview (with JavaScript; issue 30): where an opening order of `num`
 * contracts at `price` (the mark without one) would leave the member's liquidation price, long and
 * short, as the engine works it out. A resource route: the form loads it as the numbers change.
 */
export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, ({ engine, params, request }) => contractPreview(engine, params.symbol ?? "", new URL(request.url)));
}
