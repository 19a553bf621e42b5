import { endpoints } from "#protocol/endpoints";
import type { LanguageCode } from "#protocol/languages";
import { MARKET_TYPES, type MarketItem } from "#protocol/market";
import { callEndpoint } from "./api.server";

/** The spot market snapshot the engine reports (never invented here). */
export function loadSpotSnapshot(lang: LanguageCode): Promise<MarketItem[]> {
  return callEndpoint(endpoints.marketInitData, { query: { type: MARKET_TYPES.spot } }, { lang });
}
