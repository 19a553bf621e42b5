import { endpoints } from "../../protocol/endpoints";
import type { MarketData } from "../market/market-data";
import type { TicketSigner } from "../realtime/tickets";
import { topics } from "../../protocol/realtime";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { engineText, requestLanguage } from "../locales/engine-texts";
import { memberEndpoint } from "./member-endpoint";
import { registerEndpoint, registerVersionedEndpoint } from "./register";

/** Public market data (spec §7 "Market") and the ticket for a member's private topic. */
export function registerMarketDataRoutes(api: ApiContext, market: MarketData, tickets: TicketSigner): void {
  const { app, apiHead, services } = api;
  const known = (symbol: string, request: Parameters<typeof requestLanguage>[0]) => {
    if (!market.has(symbol)) throw ApiError.badRequest(engineText(requestLanguage(request), "market.unknown_symbol"), "MARKET_UNKNOWN");
    return symbol;
  };

  registerEndpoint(app, apiHead, endpoints.spotSymbols, async () => market.symbolList());

  // Answered from the JSON kept for the symbol's current version (issue 13): the book, trades and
  // ticker change many times a second, reads far more often.
  const versionOfSymbol = ({ query, request }: { query: { symbol: string }; request: { headers: Parameters<typeof requestLanguage>[0] } }) =>
    market.answerVersion(known(query.symbol, request.headers));

  registerVersionedEndpoint(app, apiHead, endpoints.spotGoods, versionOfSymbol, async ({ query, request }) => {
    const symbol = known(query.symbol, request.headers);
    return {
      symbol: market.symbolInfo(symbol)!,
      ticker: market.tickerItem(symbol),
      depth: market.depth(symbol, query.levels),
      trades: market.recentTrades(symbol),
    };
  });

  registerVersionedEndpoint(
    app,
    apiHead,
    endpoints.klineHistory,
    versionOfSymbol,
    async ({ query, request }) => {
      const symbol = known(query.symbol, request.headers);
      return market.klines(symbol, query.period, query.to ?? services.now(), query.limit);
    },
    // History paged back by `to` is asked once per page and member: not worth keeping.
    ({ query }) => query.to === undefined,
  );

  registerEndpoint(app, apiHead, endpoints.batchKLineList, async ({ query, request }) => {
    const out: Record<string, string[]> = {};
    for (const symbol of query.symbols) {
      known(symbol, request.headers);
      out[symbol] = (await market.klines(symbol, query.period, services.now(), query.limit)).map((c) => c.c);
    }
    return out;
  });

  registerEndpoint(app, apiHead, endpoints.priceComparison, async ({ params }) => {
    const prices = market
      .symbolList()
      .filter((s) => s.coin_symbol === params.coin)
      .flatMap((s) => {
        const item = market.tickerItem(s.symbolName);
        return item.close === null ? [] : [{ quote: s.quote_symbol, price: item.close, change: item.zdf }];
      });
    return { coin: params.coin, prices };
  });

  memberEndpoint(api, endpoints.realtimeTicket, async ({ memberId, now }) => {
    const { ticket, expiresAt } = tickets.issue(memberId, now);
    return { topic: topics.refresh(memberId), ticket, expiresAt };
  });
}
