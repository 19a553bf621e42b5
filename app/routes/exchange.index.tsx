import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { detectLanguage } from "~/services/i18n.server";
import { orUnavailable } from "~/services/errors.server";
import { loadSpotSnapshot } from "~/services/market.server";

/** /exchange/index opens the spot trading page of the first market (spec §2). */
export async function loader({ request }: LoaderFunctionArgs) {
  const markets = await orUnavailable(request, loadSpotSnapshot(await detectLanguage(request)));
  const first = markets[0];
  if (!first) throw new Response("No market is open", { status: 404 });
  return redirect(`/exchange/full-screen/${first.symbolName.replace("/", "_")}`);
}
