import { endpoints } from "../../protocol/endpoints";
import type { MarketListing } from "../market/market-listing";
import type { ApiContext } from "./context";
import { registerEndpoint } from "./register";

/** Market snapshot (spec §7 "Market": `market/initData?type`), public. */
export function registerMarketRoutes({ app, apiHead }: ApiContext, listing: MarketListing): void {
  registerEndpoint(app, apiHead, endpoints.marketInitData, ({ query }) => listing.items(query.type));
}
