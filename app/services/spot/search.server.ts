import { data } from "@remix-run/node";
import { searchTextField } from "#protocol/endpoints/search";
import type { SearchData } from "~/lib/search";
import type { Engine } from "../engine/client.server";

/**
 * The search page's and the header panel's data (`/search?q=`): the text is checked with the
 * engine's own rule first, so a refused one never costs a call; it is answered 400 with the hot
 * list to choose from instead.
 */
export async function loadSearch(engine: Engine) {
  const raw = new URL(engine.request.url).searchParams.get("q") ?? "";
  const parsed = searchTextField.safeParse(raw);
  if (!parsed.success) {
    const refused: SearchData = { q: raw.slice(0, 40), error: "search.invalid", answer: await engine.market.search("") };
    return data(refused, { status: 400 });
  }
  const found: SearchData = { q: parsed.data, error: null, answer: await engine.market.search(parsed.data) };
  return data(found);
}
