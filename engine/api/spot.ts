import { endpoints } from "../../protocol/endpoints";
import { ORDER_TYPES } from "../../protocol/endpoints/spot";
import type { RefusalReason } from "../../protocol/refusal-reasons";
import { readOrderShape, type OrderShape } from "../../protocol/spot-order";
import { ResultCode } from "../../protocol/result-codes";
import { KEY_REUSED } from "../journal/idempotency";
import type { TimeInForce } from "../core/matching/order-book";
import type { SpotMarket } from "../core/spot/spot-market";
import type { MarketData } from "../market/market-data";
import type { MarketChange, OrderAnswer, PlaceOrderInput, SpotService, SpotServiceCode } from "../spot/spot-service";
import { fromMinor } from "../../protocol/money";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { engineText, type TextKey } from "../locales/engine-texts";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";
import { registerEndpoint } from "./register";

const MESSAGES: Record<Exclude<SpotServiceCode, "OK">, TextKey> = {
  [KEY_REUSED]: "spot.key_reused",
  RISK_INSUFFICIENT_AVAILABLE: "spot.insufficient",
  ORDER_BAD_TICK: "spot.bad_tick",
  ORDER_BAD_LOT: "spot.bad_lot",
  ORDER_BAD_MONEY: "spot.bad_money",
  MARKET_HALTED: "spot.halted",
  ORDER_TOO_SMALL: "spot.too_small",
  ORDER_OUT_OF_RANGE: "spot.out_of_range",
  ORDER_BAD_COMMAND: "spot.bad_order",
  ORDER_NOT_ON_MARGIN: "spot.not_on_margin",
  ORDER_UNKNOWN: "spot.unknown_order",
  ORDER_NOT_OWNER: "spot.unknown_order",
  MATCHING_POST_ONLY_WOULD_TRADE: "spot.post_only",
  MATCHING_FOK_NOT_FILLED: "spot.fok",
  MATCHING_DUPLICATE_ID: "spot.bad_order",
  STOP_PROFIT_WOULD_TRIGGER: "spot.stop_profit_sell",
  STOP_LOSS_WOULD_TRIGGER: "spot.stop_loss_sell",
  STOP_PRICES_CROSSED: "spot.stop_crossed_sell",
  STOP_MARKET_BUY_BY_AMOUNT: "spot.stop_market_buy",
};
/**
 * The reason code each refusal answers with (`protocol/refusal-reasons.ts`): the core's code as
 * it is, except that another member's order is an unknown one (nothing about it is revealed) and
 * a duplicate order id is a bad command (the engine makes ids; a member cannot cause one).
 */
const REASONS: Record<Exclude<SpotServiceCode, "OK">, RefusalReason> = {
  [KEY_REUSED]: "IDEMPOTENCY_KEY_REUSED",
  RISK_INSUFFICIENT_AVAILABLE: "RISK_INSUFFICIENT_AVAILABLE",
  ORDER_BAD_TICK: "ORDER_BAD_TICK",
  ORDER_BAD_LOT: "ORDER_BAD_LOT",
  ORDER_BAD_MONEY: "ORDER_BAD_MONEY",
  MARKET_HALTED: "MARKET_HALTED",
  ORDER_TOO_SMALL: "ORDER_TOO_SMALL",
  ORDER_OUT_OF_RANGE: "ORDER_OUT_OF_RANGE",
  ORDER_BAD_COMMAND: "ORDER_BAD_COMMAND",
  ORDER_NOT_ON_MARGIN: "ORDER_NOT_ON_MARGIN",
  ORDER_UNKNOWN: "ORDER_UNKNOWN",
  ORDER_NOT_OWNER: "ORDER_UNKNOWN",
  MATCHING_POST_ONLY_WOULD_TRADE: "MATCHING_POST_ONLY_WOULD_TRADE",
  MATCHING_FOK_NOT_FILLED: "MATCHING_FOK_NOT_FILLED",
  MATCHING_DUPLICATE_ID: "ORDER_BAD_COMMAND",
  STOP_PROFIT_WOULD_TRIGGER: "STOP_PROFIT_WOULD_TRIGGER",
  STOP_LOSS_WOULD_TRIGGER: "STOP_LOSS_WOULD_TRIGGER",
  STOP_PRICES_CROSSED: "STOP_PRICES_CROSSED",
  STOP_MARKET_BUY_BY_AMOUNT: "STOP_MARKET_BUY_BY_AMOUNT",
};
/** Refusals of an order's shape that no service code names. */
const STOP_SHAPE_MESSAGES: Record<"STOP_ONLY_FIELDS" | "STOP_NEEDS_TRIGGER", TextKey> = {
  STOP_ONLY_FIELDS: "spot.stop_only",
  STOP_NEEDS_TRIGGER: "spot.stop_needs_trigger",
};
/** Stop refusals a buy words the other way round (its stop-profit is below the price, its stop-loss above). */
const BUY_MESSAGES: Partial<Record<SpotServiceCode, TextKey>> = {
  STOP_PROFIT_WOULD_TRIGGER: "spot.stop_profit_buy",
  STOP_LOSS_WOULD_TRIGGER: "spot.stop_loss_buy",
  STOP_PRICES_CROSSED: "spot.stop_crossed_buy",
};

/**
 * Spot orders and the operators' markets: their list (with the last price and 24 h volume when
 * `marketData` runs) and changes (spec §7 "Orders"). Every refusal changes nothing.
 */
export function registerSpotRoutes(api: ApiContext, spot: SpotService, marketData?: MarketData): void {
  const { app, apiHead, services } = api;
  /** A refusal changes nothing; a key reused for another request is a conflict (409), not a bad order. */
  const refuse = (code: SpotServiceCode, lang: Parameters<typeof engineText>[0], side?: "buy" | "sell") => {
    const text = engineText(lang, (side === "buy" ? BUY_MESSAGES[code] : undefined) ?? MESSAGES[code as Exclude<SpotServiceCode, "OK">] ?? "spot.bad_order");
    const reason = REASONS[code as Exclude<SpotServiceCode, "OK">] ?? "ORDER_BAD_COMMAND";
    return code === KEY_REUSED ? new ApiError(ResultCode.CONFLICT, text, reason) : ApiError.badRequest(text, reason);
  };

  memberEndpoint(api, endpoints.placeOrder, async ({ params, body, memberId, lang }) => {
    // Which fields the order's type takes is the protocol's rule (protocol/spot-order.ts).
    const read = readOrderShape(ORDER_TYPES[params.type], body.direction, body);
    if (!read.ok) {
      const { reason } = read.issues[0]!;
      if (reason === "STOP_ONLY_FIELDS" || reason === "STOP_NEEDS_TRIGGER") throw ApiError.badRequest(engineText(lang, STOP_SHAPE_MESSAGES[reason]), reason);
      throw refuse(reason, lang);
    }
    const { symbol, direction: side, clientOrderId, tif, idempotencyKey } = body;
    const margin = body.dealType === "pry" ? (body.marginMode === "fixed" ? symbol : "all") : undefined;
    const input = {
      symbol,
      side,
      ...orderInput(read.shape, tif),
      ...(clientOrderId !== undefined ? { clientOrderId } : {}),
      ...(margin !== undefined ? { margin } : {}),
    };
    const answer = await spot.placeOrder(memberId, input, idempotencyKey);
    if (answer.code !== "OK" || !answer.orderId || answer.status === "rejected") throw refuse(answer.code, lang, body.direction);
    return orderView(answer);
  });

  memberEndpoint(api, endpoints.cancelOrder, async ({ body, memberId, lang }) => {
    const code = await spot.cancelOrder(memberId, body.orderId);
    if (code !== "OK") throw refuse(code, lang);
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.demoAccount, async () => services.demoAccount);

  // A read: no audit row (decision 043).
  operatorEndpoint(api, endpoints.opsMarkets, async () =>
    [...spot.markets.values()].map((market) => {
      const symbol = market.config.symbol;
      const ticker = marketData?.has(symbol) ? marketData.tickerItem(symbol) : null;
      return { ...marketView(market), base: market.config.base, quote: market.config.quote, lastPrice: ticker?.close ?? null, volume24h: ticker?.vol ?? null };
    }),
  );

  operatorEndpoint(api, endpoints.adminMarketHalt, async ({ body, act }) => {
    const code = await spot.setHalted(body.symbol, body.halted, act);
    if (code === "MARKET_UNKNOWN") throw ApiError.notFound(`no spot market ${body.symbol}`);
    if (code === "UNCHANGED") {
      throw new ApiError(ResultCode.CONFLICT, `${body.symbol} is ${body.halted ? "halted" : "trading"} already`, "DECIDED_ALREADY");
    }
    return { symbol: body.symbol, halted: body.halted };
  });

  operatorEndpoint(api, endpoints.adminMarketAdd, async ({ body, act }) => {
    const [base, quote] = body.symbol.split("/") as [string, string];
    const newBase = body.baseScale !== undefined ? { scale: body.baseScale, name: body.baseName ?? base } : undefined;
    return marketAnswer(await spot.addMarket({ ...body, base, quote, newBase }, act), body.symbol);
  });

  operatorEndpoint(api, endpoints.adminMarketUpdate, async ({ body, act }) => {
    return marketAnswer(await spot.updateMarket(body.symbol, body, act), body.symbol);
  });
}

/** A placed order as the member is answered (remaining, end reason and client order id only when known). */
function orderView(answer: OrderAnswer) {
  const { orderId, status, filled, trades, remaining, endReason, clientOrderId } = answer;
  return {
    orderId: orderId!,
    status: status as Exclude<OrderAnswer["status"], "rejected">,
    filled,
    trades,
    ...(remaining !== undefined && { remaining }),
    ...(endReason !== undefined && { endReason }),
    ...(clientOrderId !== undefined && { clientOrderId }),
  };
}

/** An operator's market change as the answer shows it, or its refusal. */
function marketAnswer(change: MarketChange, symbol: string) {
  if (change.code === "MARKET_EXISTS") throw new ApiError(ResultCode.CONFLICT, `${symbol} is already listed`);
  if (change.code === "MARKET_UNKNOWN") throw ApiError.notFound(`no spot market ${symbol}`);
  if (change.code === "ASSET_UNKNOWN" || change.code === "BAD_RULES") throw ApiError.badRequest(change.problem);
  return marketView(change.market);
}

/** A market's listing, rules and halt as operators read them: decimals as texts at the market's scales. */
function marketView(market: SpotMarket) {
  const c = market.config;
  return {
    symbol: c.symbol,
    priceScale: c.priceScale,
    amountScale: c.amountScale,
    tickSize: fromMinor(c.tickSize, c.priceScale),
    lotSize: fromMinor(c.lotSize, c.amountScale),
    minQuantity: fromMinor(c.minQuantity, c.amountScale),
    makerFeeBps: Number(c.makerFeeBps),
    takerFeeBps: Number(c.takerFeeBps),
    halted: market.isHalted,
  };
}

/**
 * The service's order input for an order of a known shape: a market order (and a stop that enters
 * at market) is immediate-or-cancel, whatever time in force was sent.
 */
function orderInput(shape: OrderShape, tif: TimeInForce): Omit<PlaceOrderInput, "symbol" | "side"> {
  switch (shape.kind) {
    case "limit":
      return { type: "limit", price: shape.price, quantity: shape.size.num, tif };
    case "market":
      return { type: "market", quantity: shape.size.num, money: shape.size.money, tif: "IOC" };
    case "stop": {
      const { entry, stopProfitPrice, stopLossPrice } = shape;
      const enters = entry.price !== undefined ? { type: "limit" as const, price: entry.price, tif } : { type: "market" as const, tif: "IOC" as const };
      return { ...enters, quantity: entry.size.num, money: entry.size.money, stopProfitPrice, stopLossPrice };
    }
  }
}
