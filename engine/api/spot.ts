import { endpoints } from "../../protocol/endpoints";
import { ACCOUNT_TYPES, ORDER_TYPES } from "../../protocol/endpoints/spot";
import { ResultCode } from "../../protocol/result-codes";
import type { SpotCode } from "../core/spot/spot-market";
import type { SpotService } from "../spot/spot-service";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { engineText, requestLanguage, type TextKey } from "./engine-texts";
import { requireAdmin } from "./members/kyc";
import { requireMember } from "./members/require-member";
import { registerEndpoint } from "./register";

const MESSAGES: Record<Exclude<SpotCode, "OK">, TextKey> = {
  RISK_INSUFFICIENT_AVAILABLE: "spot.insufficient",
  ORDER_BAD_TICK: "spot.bad_tick",
  ORDER_BAD_LOT: "spot.bad_lot",
  ORDER_TOO_SMALL: "spot.too_small",
  ORDER_BAD_COMMAND: "spot.bad_order",
  ORDER_UNKNOWN: "spot.unknown_order",
  ORDER_NOT_OWNER: "spot.unknown_order",
  MATCHING_POST_ONLY_WOULD_TRADE: "spot.post_only",
  MATCHING_FOK_NOT_FILLED: "spot.fok",
  MATCHING_DUPLICATE_ID: "spot.bad_order",
};

/** Spot orders and balances (spec §7 "Orders", "Wallet"). Every refusal changes nothing. */
export function registerSpotRoutes({ app, apiHead, db, services }: ApiContext, spot: SpotService): void {
  const refuse = (code: SpotCode, lang: Parameters<typeof engineText>[0]) => ApiError.badRequest(engineText(lang, MESSAGES[code as Exclude<SpotCode, "OK">] ?? "spot.bad_order"));

  registerEndpoint(app, apiHead, endpoints.placeOrder, async ({ params, body, request }) => {
    const lang = requestLanguage(request.headers);
    const { memberId } = await requireMember(db, request, services.now());
    const type = ORDER_TYPES[params.type];
    // A limit order needs a price and an amount; a market sell an amount; a market buy an amount or money.
    const valid =
      type === "limit"
        ? body.price !== undefined && body.num !== undefined && body.money === undefined
        : body.price === undefined && (body.direction === "sell" ? body.num !== undefined && body.money === undefined : (body.num === undefined) !== (body.money === undefined));
    if (!valid) throw refuse("ORDER_BAD_COMMAND", lang);
    const answer = await spot.placeOrder(
      memberId,
      { symbol: body.symbol, side: body.direction, type, price: body.price, quantity: body.num, money: body.money, tif: type === "market" ? "IOC" : body.tif },
      body.idempotencyKey,
    );
    if (answer.code !== "OK" || !answer.orderId || answer.status === "rejected") throw refuse(answer.code, lang);
    return { orderId: answer.orderId, status: answer.status, filled: answer.filled, trades: answer.trades };
  });

  registerEndpoint(app, apiHead, endpoints.cancelOrder, async ({ body, request }) => {
    const lang = requestLanguage(request.headers);
    const { memberId } = await requireMember(db, request, services.now());
    const code = await spot.cancelOrder(memberId, body.orderId);
    if (code !== "OK") throw refuse(code, lang);
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.balances, async ({ query, request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    return spot.balances(memberId, ACCOUNT_TYPES[query.type]);
  });

  registerEndpoint(app, apiHead, endpoints.transfer, async ({ query, request }) => {
    const lang = requestLanguage(request.headers);
    const { memberId } = await requireMember(db, request, services.now());
    if (query.from === query.to) throw refuse("ORDER_BAD_COMMAND", lang);
    const code = await spot.transferBetween(memberId, query.coin, ACCOUNT_TYPES[query.from], ACCOUNT_TYPES[query.to], query.amount, `trans:${memberId}:${query.idempotencyKey}`);
    if (code !== "OK") throw refuse(code, lang);
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.adminDeposit, async ({ body, request }) => {
    requireAdmin(request, services.adminToken);
    const member = await db.selectFrom("member").select("id").where("uid", "=", body.uid).executeTakeFirst();
    if (!member) throw ApiError.notFound(`no member with uid ${body.uid}`);
    const ok = await spot.deposit(member.id, body.coin, body.account, body.amount, `deposit:${body.reference}`).catch(() => false);
    if (!ok) throw new ApiError(ResultCode.CONFLICT, "deposit refused: unknown coin, bad amount or reference already used");
    return null;
  });
}
