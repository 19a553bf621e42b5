import { endpoints } from "../../protocol/endpoints";
import type { MarketItem } from "../../protocol/market";
import type { ApiContext } from "./context";
import { registerEndpoint } from "./register";

/**
 * Market snapshot (spec §7 "Market": `market/initData?type`). Tickers come with the spot issue's
 * trades; until then a listed symbol reports an empty ticker.
 */
export function registerMarketRoutes({ app, apiHead, db }: ApiContext): void {
  registerEndpoint(app, apiHead, endpoints.marketInitData, async ({ query }) => {
    const rows = await db
      .selectFrom("market_symbol")
      .select(["symbol_name", "coin_symbol", "quote_symbol", "contract_type", "avatar"])
      .where("enabled", "=", true)
      .where("contract_type", "=", Number(query.type ?? "0"))
      .orderBy("sort")
      .orderBy("id")
      .execute();
    return rows.map(
      (row): MarketItem => ({
        symbolName: row.symbol_name,
        coin_symbol: row.coin_symbol,
        quote_symbol: row.quote_symbol,
        contract_type: row.contract_type,
        avatar: row.avatar,
        close: null,
        high: null,
        low: null,
        amount: null,
        vol: null,
        zdf: null,
      }),
    );
  });
}
