import { endpoints } from "../../protocol/endpoints";
import type { MarketSearch } from "../market/market-search";
import type { ApiContext } from "./context";
import { registerEndpoint } from "./register";

/**
 * The header search (spec §2, §5): public, since visitors search too, and answered from memory,
 * since it runs on keystrokes. A `q` that is too long or holds other characters than letters,
 * digits, `/`, `_`, `-` and spaces is answered 400 naming it.
 */
export function registerSearchRoutes({ app, apiHead }: ApiContext, search: MarketSearch): void {
  registerEndpoint(app, apiHead, endpoints.marketSearch, async ({ query }) => search.search(query.q));
}
