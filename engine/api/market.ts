import { endpoints } from "../../protocol/endpoints";
import type { MarketListing } from "../market/market-listing";
import type { ApiContext } from "./context";
import { registerVersionedEndpoint } from "./register";

/**
 * Market snapshot (spec §7 "Market": `market/initData?type`), public: answered from the JSON kept
 * while the listing and the markets' tickers stay as they were (issue 13).
 */
export function registerMarketRoutes({ app, apiHead }: ApiContext, listing: MarketListing): void {
  registerVersionedEndpoint(
    app,
    apiHead,
    endpoints.marketInitData,
    ({ query }) => listing.version(query.type),
    ({ query }) => listing.items(query.type),
  );
}
