import { endpoints } from "../../protocol/endpoints";
import { ACCOUNT_TYPES } from "../../protocol/endpoints/spot";
import { ResultCode } from "../../protocol/result-codes";
import type { Funds, TransferCode } from "../journal/funds";
import { KEY_REUSED } from "../journal/idempotency";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { engineText, requestLanguage, type TextKey } from "./engine-texts";
import { requireAdmin } from "./members/kyc";
import { requireMember } from "./members/require-member";
import { registerEndpoint } from "./register";

const MESSAGES: Record<Exclude<TransferCode, "OK">, TextKey> = {
  [KEY_REUSED]: "spot.key_reused",
  RISK_INSUFFICIENT_AVAILABLE: "spot.insufficient",
  ORDER_BAD_COMMAND: "spot.bad_order",
};

/** A member's balances and transfers between their own accounts, and operators' deposits (spec §7 "Wallet"). */
export function registerFundsRoutes({ app, apiHead, db, services }: ApiContext, funds: Funds): void {
  /** A refusal changes nothing; a key reused for another transfer is a conflict (409). */
  const refuse = (code: Exclude<TransferCode, "OK">, lang: Parameters<typeof engineText>[0]) => {
    const text = engineText(lang, MESSAGES[code]);
    return code === KEY_REUSED ? new ApiError(ResultCode.CONFLICT, text) : ApiError.badRequest(text);
  };

  registerEndpoint(app, apiHead, endpoints.balances, async ({ query, request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    return funds.balances(memberId, ACCOUNT_TYPES[query.type]);
  });

  registerEndpoint(app, apiHead, endpoints.transfer, async ({ query, request }) => {
    const lang = requestLanguage(request.headers);
    const { memberId } = await requireMember(db, request, services.now());
    if (query.from === query.to) throw refuse("ORDER_BAD_COMMAND", lang);
    const code = await funds.transferBetween(memberId, query.coin, ACCOUNT_TYPES[query.from], ACCOUNT_TYPES[query.to], query.amount, `trans:${memberId}:${query.idempotencyKey}`);
    if (code !== "OK") throw refuse(code, lang);
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.adminDeposit, async ({ body, request }) => {
    requireAdmin(request, services.adminToken);
    const member = await db.selectFrom("member").select("id").where("uid", "=", body.uid).executeTakeFirst();
    if (!member) throw ApiError.notFound(`no member with uid ${body.uid}`);
    const ok = await funds.deposit(member.id, body.coin, body.account, body.amount, `deposit:${body.reference}`).catch(() => false);
    if (!ok) throw new ApiError(ResultCode.CONFLICT, "deposit refused: unknown coin, bad amount or reference already used");
    return null;
  });
}
