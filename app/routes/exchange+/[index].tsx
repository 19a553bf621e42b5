import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { withEngine } from "~/services/engine/route.server";

/** /exchange/index opens the spot trading page of the first market (spec §2). */
export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, async ({ engine }) => {
    const first = (await engine.market.snapshot())[0];
    if (!first) throw new Response("No market is open", { status: 404 });
    return redirect(`/exchange/full-screen/${first.symbolName.replace("/", "_")}`);
  });
}
