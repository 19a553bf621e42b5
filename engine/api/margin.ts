import { endpoints } from "../../protocol/endpoints";
import type * as z from "zod";
import { marginRecordExportSchema, type MarginMode, type marginRecordFilterSchema } from "../../protocol/endpoints/margin";
import type { LanguageCode } from "../../protocol/languages";
import { fromMinor, toMinor } from "../../protocol/money";
import type { RefusalReason } from "../../protocol/refusal-reasons";
import { ResultCode } from "../../protocol/result-codes";
import { CROSS_LEVERAGE, type MarginScope } from "../core/margin/margin";
import { KEY_REUSED } from "../journal/idempotency";
import { engineText, type TextKey } from "../locales/engine-texts";
import { MarginRecords, type MarginRecordFilter } from "../margin/margin-records";
import type { MarginService, MarginServiceCode } from "../margin/margin-service";
import { marginAccountView, marginPoolView, marginRateView } from "../margin/margin-views";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { memberCsvExport } from "./csv-export";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";
import { registerEndpoint } from "./register";

const MESSAGES: Record<Exclude<MarginServiceCode, "OK">, TextKey> = {
  [KEY_REUSED]: "margin.key_reused",
  MARGIN_UNKNOWN_PAIR: "margin.unknown_pair",
  MARGIN_UNKNOWN_ASSET: "margin.unknown_coin",
  MARGIN_BAD_AMOUNT: "margin.bad_amount",
  MARGIN_BELOW_MINIMUM: "margin.below_minimum",
  MARGIN_POOL_EXHAUSTED: "margin.pool_exhausted",
  MARGIN_OVER_LIMIT: "margin.over_limit",
  MARGIN_NO_PRICE: "margin.no_price",
  MARGIN_INSUFFICIENT: "margin.insufficient",
  MARGIN_REPAY_EXCEEDS: "margin.repay_exceeds",
  MARGIN_LEVEL_UNSAFE: "margin.level_unsafe",
  MARGIN_BAD_LEVERAGE: "margin.bad_leverage",
  MARGIN_BAD_RULES: "margin.bad_rules",
  MARGIN_FEES_SHORT: "margin.fees_short",
};

/**
 * Margin trading over the API (issue 31, spec §7; decision 050): a member's accounts, what they
 * may borrow and what it costs from memory; borrows, repayments, transfers and leverage through
 * `MarginService`, each once per idempotency key; their records from the tables; operators' pools.
 * A refusal says why in the member's language, with the figures that would pass, and changes nothing.
 */
export function registerMarginRoutes(api: ApiContext, service: MarginService): void {
  const { app, apiHead } = api;
  const core = service.durable.core;
  const margin = core.margin;
  const records = new MarginRecords(service.durable.db, (memberId) => service.durable.projectedFor(memberId));

  /** The account a call names: cross for `all` (no symbol), an isolated pair for `fixed` (its symbol). */
  const scopeOf = (mode: MarginMode, symbol: string | undefined, lang: LanguageCode): MarginScope => {
    if (mode === "all") {
      if (symbol !== undefined) throw ApiError.badRequest(engineText(lang, "margin.symbol_with_cross"), "VALIDATION");
      return "all";
    }
    if (symbol === undefined) throw ApiError.badRequest(engineText(lang, "margin.symbol_needed"), "VALIDATION");
    if (!margin.pairs.has(symbol)) throw ApiError.notFound(engineText(lang, "margin.unknown_pair"), "MARGIN_UNKNOWN_PAIR");
    return symbol;
  };
  const amountText = (coin: string, minor: bigint) => fromMinor(minor, core.scaleOf(coin));
  /** The refusal's text, with the figures a member needs to correct the request. */
  const refuse = (code: MarginServiceCode, lang: LanguageCode, memberId: string, scope: MarginScope, coin: string) => {
    const failed = code as Exclude<MarginServiceCode, "OK">;
    const params: Record<string, string> = { coin };
    if (core.assetScales.has(coin)) {
      const most = margin.canBorrow(memberId, scope, coin);
      if (typeof most === "bigint") params.max = amountText(coin, most);
      const pool = margin.pools.get(coin);
      if (pool) params.min = amountText(coin, pool.minBorrow);
      const loan = margin.loan(memberId, scope, coin);
      params.owed = amountText(coin, loan ? loan.principal + loan.interest : 0n);
    }
    const text = engineText(lang, MESSAGES[failed] ?? "margin.bad_amount", params);
    const reason: RefusalReason = code === KEY_REUSED ? "IDEMPOTENCY_KEY_REUSED" : failed === KEY_REUSED ? "VALIDATION" : failed;
    return code === KEY_REUSED ? new ApiError(ResultCode.CONFLICT, text, reason) : ApiError.badRequest(text, reason);
  };
  const coinOf = (coin: string, scope: MarginScope, lang: LanguageCode) => {
    if (!margin.assetsOf(scope)?.has(coin)) throw ApiError.badRequest(engineText(lang, "margin.unknown_coin", { coin }), "MARGIN_UNKNOWN_ASSET");
    return coin;
  };

  memberEndpoint(api, endpoints.marginProperty, async ({ memberId }) => ({
    cross: marginAccountView(core, memberId, "all"),
    isolated: [...margin.pairs.keys()].map((symbol) => marginAccountView(core, memberId, symbol)),
  }));

  memberEndpoint(api, endpoints.marginAccount, async ({ params, memberId, lang }) =>
    marginAccountView(core, memberId, scopeOf(params.mode, params.symbol === "all" ? undefined : params.symbol, lang)),
  );

  const pairViews = () => [...margin.pairs.values()].map((p) => ({ symbolName: p.symbol, base: p.base, quote: p.quote, maxLeverage: p.maxLeverage }));
  registerEndpoint(app, apiHead, endpoints.marginPairs, async () => ({ crossLeverage: CROSS_LEVERAGE, pairs: pairViews() }));

  registerEndpoint(app, apiHead, endpoints.marginRates, async () => [...margin.pools.keys()].map((coin) => marginRateView(core, coin)));

  memberEndpoint(api, endpoints.canBorrow, async ({ params, body, memberId, lang }) => {
    const scope = scopeOf(params.mode, body.symbolName, lang);
    const coin = coinOf(body.coin, scope, lang);
    const most = margin.canBorrow(memberId, scope, coin);
    if (typeof most === "string") throw refuse(most, lang, memberId, scope, coin);
    return { coin, canBorrow: amountText(coin, most), hourlyRate: marginRateView(core, coin).hourlyRate };
  });

  memberEndpoint(api, endpoints.preBorrow, async ({ params, body, memberId, lang }) => {
    const scope = scopeOf(params.mode, body.symbolName, lang);
    const coin = coinOf(body.coin, scope, lang);
    const most = margin.canBorrow(memberId, scope, coin);
    if (typeof most === "string") throw refuse(most, lang, memberId, scope, coin);
    let amount: bigint;
    try {
      amount = toMinor(body.amount, core.scaleOf(coin));
    } catch {
      throw refuse("MARGIN_BAD_AMOUNT", lang, memberId, scope, coin);
    }
    const firstHour = margin.firstHourInterest(coin, amount);
    const { assets, debts } = margin.levelOf(memberId, scope);
    const added = margin.value(coin, amount) ?? 0n;
    const owedAfter = debts + (margin.value(coin, amount + firstHour, true) ?? 0n);
    return {
      coin,
      amount: amountText(coin, amount),
      canBorrow: amountText(coin, most),
      hourlyRate: marginRateView(core, coin).hourlyRate,
      firstHourInterest: amountText(coin, firstHour),
      dailyInterest: amountText(coin, firstHour * 24n),
      marginLevelAfter: owedAfter === 0n ? null : fromMinor(((assets + added) * 100n) / owedAfter, 2),
    };
  });

  const move = (name: "borrow" | "repay" | "marginTransfer") => {
    memberEndpoint(api, endpoints[name], async ({ params, body, memberId, lang }) => {
      const scope = scopeOf(params.mode, body.symbolName, lang);
      const coin = coinOf(body.coin, scope, lang);
      const request = { scope, asset: coin, amount: body.amount };
      const code =
        name === "borrow"
          ? await service.borrow(memberId, request, body.idempotencyKey)
          : name === "repay"
            ? await service.repay(memberId, request, body.idempotencyKey)
            : await service.transfer(memberId, { ...request, direction: (body as { direction: "in" | "out" }).direction }, body.idempotencyKey);
      if (code !== "OK") throw refuse(code, lang, memberId, scope, coin);
      return marginAccountView(core, memberId, scope);
    });
  };
  move("borrow");
  move("repay");
  move("marginTransfer");

  memberEndpoint(api, endpoints.updateMarginLeverage, async ({ body, memberId, lang }) => {
    const scope = scopeOf("fixed", body.symbolName, lang);
    const code = await service.setLeverage(memberId, scope, body.leverage, body.idempotencyKey);
    if (code !== "OK") throw refuse(code, lang, memberId, scope, "");
    return marginAccountView(core, memberId, scope);
  });

  /** A records filter as the store reads it; an isolated symbol must be a margin pair's. */
  const recordFilter = (mode: MarginMode, query: z.output<typeof marginRecordFilterSchema>, lang: LanguageCode): MarginRecordFilter => {
    if (query.symbolName !== undefined) scopeOf("fixed", query.symbolName, lang);
    return {
      mode,
      ...(query.symbolName !== undefined && mode === "fixed" ? { symbol: query.symbolName } : {}),
      ...(query.coin !== undefined ? { coin: query.coin } : {}),
      ...(query.kind !== undefined ? { kind: query.kind } : {}),
      ...(query.from !== undefined ? { from: query.from } : {}),
      ...(query.to !== undefined ? { to: query.to } : {}),
    };
  };
  memberEndpoint(api, endpoints.marginRecords, async ({ params, query, memberId, lang }) =>
    records.ofMember(memberId, recordFilter(params.mode, query, lang), { pageNo: params.pageNo, pageSize: params.pageSize }),
  );
  memberCsvExport(api, endpoints.exportMarginRecords, marginRecordExportSchema, async ({ body, memberId, lang, now }) => {
    const { mode, ...query } = body;
    return records.export(memberId, recordFilter(mode, query, lang), now);
  });

  operatorEndpoint(api, endpoints.opsMarginPools, async () => [...margin.pools.keys()].map((coin) => marginPoolView(core, coin)));

  operatorEndpoint(api, endpoints.adminMarginInsurance, async ({ body, act }) => {
    if (!margin.pools.has(body.coin)) throw ApiError.notFound(`no lending pool of ${body.coin}`, "MARGIN_UNKNOWN_ASSET");
    const code = await service.fundInsurance(body.coin, body.amount, body.idempotencyKey, act);
    if (code !== "OK") {
      const text = engineText("en", MESSAGES[code as Exclude<MarginServiceCode, "OK">] ?? "margin.bad_amount", { coin: body.coin });
      throw code === KEY_REUSED ? new ApiError(ResultCode.CONFLICT, text, "IDEMPOTENCY_KEY_REUSED") : ApiError.badRequest(text, code as RefusalReason);
    }
    return marginPoolView(core, body.coin);
  });

  operatorEndpoint(api, endpoints.adminMarginPair, async ({ body, act }) => {
    if (!core.markets.has(body.symbolName)) throw ApiError.notFound(`no spot market ${body.symbolName}`, "MARGIN_UNKNOWN_PAIR");
    const outcome = await service.changePair(body.symbolName, body.maxLeverage, act);
    if (outcome.code !== "OK") throw ApiError.badRequest(outcome.problem ?? engineText("en", MESSAGES[outcome.code] ?? "margin.bad_rules"), "MARGIN_BAD_RULES");
    return pairViews();
  });

  operatorEndpoint(api, endpoints.adminMarginPool, async ({ body, act }) => {
    if (!margin.pools.has(body.coin)) throw ApiError.notFound(`no lending pool of ${body.coin}`, "MARGIN_UNKNOWN_ASSET");
    const outcome = await service.changePool(
      {
        asset: body.coin,
        ...(body.hourlyRate !== undefined && { hourlyRate: body.hourlyRate }),
        ...(body.limit !== undefined && { limit: body.limit }),
        ...(body.minBorrow !== undefined && { minBorrow: body.minBorrow }),
      },
      act,
    );
    if (outcome.code !== "OK") throw ApiError.badRequest(outcome.problem ?? engineText("en", MESSAGES[outcome.code] ?? "margin.bad_rules"), "MARGIN_BAD_RULES");
    return marginPoolView(core, body.coin);
  });
}
