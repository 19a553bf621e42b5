import { endpoints } from "../../protocol/endpoints";
import { CONTRACT_DIRECTIONS, CONTRACT_TYPES, contractExportBodySchema } from "../../protocol/endpoints/contracts";
import type { LanguageCode } from "../../protocol/languages";
import type { RefusalReason } from "../../protocol/refusal-reasons";
import { ResultCode } from "../../protocol/result-codes";
import { ContractHistory } from "../contracts/contract-history";
import type { ContractServiceCode, ContractService } from "../contracts/contract-service";
import { contractInfo, contractState, contractTypeOf, positionView, tiersOf } from "../contracts/contract-views";
import { RATE_SCALE, tierOf } from "../core/contracts/contract-math";
import { fromMinor, toMinor } from "../../protocol/money";
import type { Perpetual } from "../core/contracts/perpetual";
import { KEY_REUSED } from "../journal/idempotency";
import { engineText, requestLanguage, type TextKey } from "../locales/engine-texts";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { memberCsvExport } from "./csv-export";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";
import { registerEndpoint } from "./register";

const MESSAGES: Record<Exclude<ContractServiceCode, "OK">, TextKey> = {
  [KEY_REUSED]: "contract.key_reused",
  CONTRACT_UNKNOWN: "contract.unknown",
  CONTRACT_HALTED: "contract.halted",
  CONTRACT_NO_PRICE: "contract.no_price",
  CONTRACT_BAD_ORDER: "contract.bad_order",
  CONTRACT_TICK: "contract.tick",
  CONTRACT_QTY: "contract.qty",
  CONTRACT_LEVERAGE: "contract.leverage",
  CONTRACT_LEVERAGE_BAND: "contract.leverage_band",
  CONTRACT_PRICE_BAND: "contract.price_band",
  CONTRACT_INSUFFICIENT_MARGIN: "contract.insufficient",
  CONTRACT_CLOSE_FIRST: "contract.close_first",
  CONTRACT_NOTHING_TO_CLOSE: "contract.nothing_to_close",
  CONTRACT_CLOSE_TOO_MUCH: "contract.close_too_much",
  CONTRACT_UNKNOWN_ORDER: "contract.unknown_order",
  CONTRACT_POST_ONLY_WOULD_TRADE: "contract.post_only",
  CONTRACT_FOK_NOT_FILLED: "contract.fok",
  CONTRACT_DUPLICATE_ID: "contract.duplicate",
  CONTRACT_ORDERS_OPEN: "contract.orders_open",
  CONTRACT_MARGIN_BELOW_INITIAL: "contract.margin_below_initial",
  CONTRACT_BAD_RULES: "contract.bad_rules",
  CONTRACT_TRIGGER_PRICE: "contract.trigger_price",
  CONTRACT_TOO_MANY_STOPS: "contract.too_many_stops",
  CONTRACT_FEES_SHORT: "contract.fees_short",
  CONTRACT_POSITION_OPEN: "contract.position_open",
  CONTRACT_MARGIN_MODE: "contract.margin_mode",
};

/** The reason each refusal answers with: the core's code, but a duplicate id (the engine makes ids) is a bad order. */
function reasonOf(code: Exclude<ContractServiceCode, "OK">): RefusalReason {
  if (code === KEY_REUSED) return "IDEMPOTENCY_KEY_REUSED";
  if (code === "CONTRACT_DUPLICATE_ID") return "CONTRACT_BAD_ORDER";
  return code;
}

/**
 * Perpetual contracts over the API (issue 30, spec §7; decision 046): the public contract list,
 * states, funding and risk tables from memory; members' orders, positions, leverage and margin
 * through `ContractService`; their order history from the tables. Every refusal changes nothing.
 */
export function registerContractRoutes(api: ApiContext, contracts: ContractService): void {
  const { app, apiHead } = api;
  const history = new ContractHistory(contracts.durable.db, contracts.durable);
  const refuse = (code: ContractServiceCode, lang: LanguageCode) => {
    const failed = code as Exclude<ContractServiceCode, "OK">;
    const text = engineText(lang, MESSAGES[failed] ?? "contract.bad_order");
    return code === KEY_REUSED ? new ApiError(ResultCode.CONFLICT, text, reasonOf(failed)) : ApiError.badRequest(text, reasonOf(failed));
  };
  const contractOf = (symbol: string, lang: LanguageCode): Perpetual => {
    const perpetual = contracts.contracts.get(symbol);
    if (!perpetual) throw ApiError.notFound(engineText(lang, "contract.unknown"), "CONTRACT_UNKNOWN");
    return perpetual;
  };
  const ofType = (type: "1" | "2") => [...contracts.contracts.values()].filter((p) => p.config.spec.kind === CONTRACT_TYPES[type]);

  registerEndpoint(app, apiHead, endpoints.getContract, async ({ query }) =>
    (query.type ? ofType(query.type) : [...contracts.contracts.values()]).map(contractInfo),
  );
  registerEndpoint(app, apiHead, endpoints.getFundingRate, async ({ query, request }) => {
    const perpetual = contractOf(query.symbolName, requestLanguage(request.headers));
    return contractState(perpetual, contracts.lastPrice(perpetual.symbol));
  });
  registerEndpoint(app, apiHead, endpoints.contractGoods, async ({ query, request }) => {
    const perpetual = contractOf(query.symbolName, requestLanguage(request.headers));
    return {
      info: contractInfo(perpetual),
      state: contractState(perpetual, contracts.lastPrice(perpetual.symbol)),
      depth: contracts.tape.depth(perpetual, query.levels ?? 20),
      trades: contracts.tape.recentTrades(perpetual),
    };
  });
  registerEndpoint(app, apiHead, endpoints.contractKline, async ({ query, request }) => {
    const perpetual = contractOf(query.symbolName, requestLanguage(request.headers));
    return contracts.tape.klines(perpetual, query.source, query.period, query.to ?? contracts.durable.now(), query.limit);
  });
  registerEndpoint(app, apiHead, endpoints.contractDetail, async ({ body }) => {
    const wanted = new Set(body.symbolNameList);
    return ofType(body.type)
      .filter((p) => wanted.size === 0 || wanted.has(p.symbol))
      .map((p) => contractState(p, contracts.lastPrice(p.symbol)));
  });
  registerEndpoint(app, apiHead, endpoints.maintenanceMargin, async ({ params, query, request }) => {
    const lang = requestLanguage(request.headers);
    const perpetual = contractOf(query.symbolName, lang);
    if ((params.kind === "ubw") !== (perpetual.config.spec.kind === "linear"))
      throw ApiError.notFound(engineText(lang, "contract.unknown"), "CONTRACT_UNKNOWN");
    return tiersOf(perpetual);
  });

  memberEndpoint(api, endpoints.placeContractOrder, async ({ params, body, memberId, lang }) => {
    const { side, action } = CONTRACT_DIRECTIONS[body.direction];
    if (action !== params.action) throw ApiError.badRequest(engineText(lang, "contract.direction"), "CONTRACT_DIRECTION");
    const type = params.type === "1" ? "limit" : "market";
    // A limit needs its price; a market order takes none and trades as IOC (or FOK) within the band.
    if ((type === "limit") !== (body.price !== undefined)) throw refuse("CONTRACT_BAD_ORDER", lang);
    const tif = type === "market" ? (body.tif === "FOK" ? "FOK" : "IOC") : body.tif;
    const answer = await contracts.placeOrder(
      memberId,
      {
        symbol: body.symbol,
        side,
        action,
        type,
        quantity: body.num,
        tif,
        ...(body.price !== undefined ? { price: body.price } : {}),
        ...(body.triggerPrice !== undefined ? { trigger: { by: body.triggerBy, price: body.triggerPrice } } : {}),
      },
      body.idempotencyKey,
    );
    if (answer.code !== "OK" || !answer.orderId || answer.status === "rejected") throw refuse(answer.code, lang);
    return { orderId: answer.orderId, status: answer.status, filled: answer.filled, remaining: answer.remaining, trades: answer.trades };
  });

  memberEndpoint(api, endpoints.previewContractOrder, async ({ query, memberId, lang }) => {
    const perpetual = contractOf(query.symbolName, lang);
    const { priceScale } = perpetual.config.spec;
    let price = perpetual.mark;
    if (query.price !== undefined) {
      try {
        price = toMinor(query.price, priceScale);
      } catch {
        throw refuse("CONTRACT_TICK", lang);
      }
    }
    if (price === null) throw refuse("CONTRACT_NO_PRICE", lang);
    const at = (side: "buy" | "sell") => {
      const preview = perpetual.market.previewOpen(memberId, side, BigInt(query.num), price);
      if (preview === "CONTRACT_CLOSE_FIRST") return null;
      return { liquidationPrice: preview.liquidation === null ? null : fromMinor(preview.liquidation, priceScale) };
    };
    return {
      symbolName: perpetual.symbol,
      price: fromMinor(price, priceScale),
      leverage: perpetual.market.leverageOf(memberId),
      long: at("buy"),
      short: at("sell"),
    };
  });

  memberEndpoint(api, endpoints.setPositionTpsl, async ({ body, memberId, lang }) => {
    const perpetual = contractOf(body.symbolName, lang);
    const answer = await contracts.setPositionStops(
      memberId,
      {
        symbol: perpetual.symbol,
        triggerBy: body.triggerBy,
        ...(body.takeProfit !== undefined && { takeProfit: body.takeProfit }),
        ...(body.stopLoss !== undefined && { stopLoss: body.stopLoss }),
      },
      body.idempotencyKey,
    );
    if (answer.code !== "OK" || answer.stopId === null) throw refuse(answer.code, lang);
    return { stopId: answer.stopId };
  });

  memberEndpoint(api, endpoints.cancelContractOrder, async ({ body, memberId, lang }) => {
    const code = await contracts.cancelOrder(memberId, body.orderId);
    if (code !== "OK") throw refuse(code, lang);
    return null;
  });

  memberEndpoint(api, endpoints.myPositions, async ({ params, memberId }) =>
    ofType(params.type).flatMap((p) => {
      const position = p.market.position(memberId);
      return position ? [positionView(p, position)] : [];
    }),
  );

  /** A member's list of a contract type: its contracts (or the one named), a page of it. */
  const listOf = (type: "1" | "2", query: { symbol?: string; pageSize?: number }, pageNo: number, lang: LanguageCode) => ({
    symbols: query.symbol ? [contractOf(query.symbol, lang).symbol] : ofType(type).map((p) => p.symbol),
    typeOf: (symbol: string) => contractTypeOf(contracts.contracts.get(symbol)!),
    page: pageNo,
    pageSize: query.pageSize ?? 20,
  });
  memberEndpoint(api, endpoints.contractOrders, async ({ params, query, memberId, lang }) =>
    history.orders(memberId, { ...listOf(params.type, query, params.pageNo, lang), scope: params.scope }),
  );
  memberEndpoint(api, endpoints.contractStops, async ({ params, query, memberId, lang }) =>
    history.stops(memberId, { ...listOf(params.type, query, params.pageNo, lang), scope: params.scope }),
  );
  memberCsvExport(api, endpoints.exportContractTradeLog, contractExportBodySchema, ({ body, memberId, lang, now }) => {
    const { symbols } = listOf(body.type, body, 1, lang);
    const label = body.symbol ? body.symbol : body.type === "1" ? "usdt-margined" : "coin-margined";
    return history.exportFills(memberId, symbols, (symbol) => contracts.contracts.get(symbol)?.config.settleAsset ?? "", label, now);
  });
  memberEndpoint(api, endpoints.contractFunding, async ({ params, query, memberId, lang }) =>
    history.funding(memberId, listOf(params.type, query, params.pageNo, lang)),
  );
  memberEndpoint(api, endpoints.contractLiquidations, async ({ params, query, memberId, lang }) =>
    history.liquidations(memberId, listOf(params.type, query, params.pageNo, lang)),
  );

  memberEndpoint(api, endpoints.closeAllPositions, async ({ body, memberId, lang }) => {
    const named = body.oneKeySymbolNameList.length ? body.oneKeySymbolNameList.map((s) => contractOf(s, lang)) : ofType(body.contractType);
    const symbols = named.filter((p) => p.market.position(memberId)).map((p) => p.symbol);
    const asked = `${body.contractType}:${[...body.oneKeySymbolNameList].sort().join(",")}`;
    const code = await contracts.closePositions(memberId, symbols.length ? symbols : named.map((p) => p.symbol), body.idempotencyKey, asked);
    if (code !== "OK") throw refuse(code, lang);
    return { symbols };
  });

  memberEndpoint(api, endpoints.contractLeverage, async ({ query, memberId, lang }) => {
    const perpetual = contractOf(query.symbolName, lang);
    const position = perpetual.market.position(memberId);
    return {
      symbolName: perpetual.symbol,
      leverage: perpetual.market.leverageOf(memberId),
      maxLeverage: tierOf(perpetual.config.tiers, position?.cost ?? 0n).maxLeverage,
      marginMode: perpetual.market.marginModeOf(memberId),
    };
  });

  memberEndpoint(api, endpoints.updateMarginMode, async ({ body, memberId, lang }) => {
    const perpetual = contractOf(body.symbolName, lang);
    const code = await contracts.setMarginMode(memberId, perpetual.symbol, body.mode, body.idempotencyKey);
    if (code !== "OK") throw refuse(code, lang);
    return { symbolName: perpetual.symbol, marginMode: body.mode };
  });

  memberEndpoint(api, endpoints.updateLeverage, async ({ body, memberId, lang }) => {
    const perpetual = contractOf(body.symbolName, lang);
    const code = await contracts.setLeverage(memberId, perpetual.symbol, body.leverage, body.idempotencyKey);
    if (code !== "OK") throw refuse(code, lang);
    return { symbolName: perpetual.symbol, leverage: body.leverage };
  });

  operatorEndpoint(api, endpoints.opsContracts, async () =>
    [...contracts.contracts.values()].map((p) => ({ info: contractInfo(p), state: contractState(p, contracts.lastPrice(p.symbol)) })),
  );

  operatorEndpoint(api, endpoints.adminContractRules, async ({ body, act }) => {
    const perpetual = contracts.contracts.get(body.symbol);
    if (!perpetual) throw ApiError.notFound(`no contract ${body.symbol}`, "CONTRACT_UNKNOWN");
    let priceBand: string | undefined;
    try {
      priceBand = body.priceBand === undefined ? undefined : toMinor(body.priceBand, RATE_SCALE).toString();
    } catch {
      throw ApiError.badRequest("the price band has more than 8 decimals", "CONTRACT_BAD_RULES");
    }
    const { symbol, halted, makerFeeBps, takerFeeBps, minQty, maxQty } = body;
    const change = await contracts.changeRules(
      {
        symbol,
        ...(halted !== undefined && { halted }),
        ...(makerFeeBps !== undefined && { makerFeeBps }),
        ...(takerFeeBps !== undefined && { takerFeeBps }),
        ...(minQty !== undefined && { minQty }),
        ...(maxQty !== undefined && { maxQty }),
        ...(priceBand !== undefined && { priceBand }),
      },
      act,
    );
    if (change.code !== "OK") throw ApiError.badRequest(change.problem ?? change.code, "CONTRACT_BAD_RULES");
    return contractInfo(perpetual);
  });

  /** A settlement coin's funds as operators read them (decimal texts at the coin's scale). */
  const fundsView = (f: { coin: string; insurance: bigint; fees: bigint; deficit: bigint }) => {
    const scale = contracts.durable.core.assetScales.get(f.coin) ?? 8;
    return { coin: f.coin, insurance: fromMinor(f.insurance, scale), fees: fromMinor(f.fees, scale), deficit: fromMinor(f.deficit, scale) };
  };
  operatorEndpoint(api, endpoints.opsContractFunds, async () => contracts.funds().map(fundsView));
  operatorEndpoint(api, endpoints.adminFundInsurance, async ({ body, act, request }) => {
    const lang = requestLanguage(request.headers);
    const code = await contracts.fundInsurance(body.coin, body.amount, body.idempotencyKey, act);
    if (code !== "OK") throw code === "CONTRACT_UNKNOWN" ? ApiError.notFound(engineText(lang, "contract.unknown"), "CONTRACT_UNKNOWN") : refuse(code, lang);
    return fundsView(contracts.funds().find((f) => f.coin === body.coin)!);
  });

  memberEndpoint(api, endpoints.updateBond, async ({ body, memberId, lang }) => {
    const perpetual = contractOf(body.symbolName, lang);
    const code = await contracts.changeMargin(memberId, perpetual.symbol, body.amount, body.idempotencyKey);
    if (code !== "OK") throw refuse(code, lang);
    const position = perpetual.market.position(memberId);
    if (!position) throw refuse("CONTRACT_NOTHING_TO_CLOSE", lang);
    return positionView(perpetual, position);
  });
}
