import { endpoints } from "../../protocol/endpoints";
import { ACCOUNTS } from "../../protocol/accounts";
import { toMinor } from "../../protocol/money";
import type { RefusalReason } from "../../protocol/refusal-reasons";
import { ResultCode } from "../../protocol/result-codes";
import type { Funds, TransferCode } from "../journal/funds";
import { KEY_REUSED } from "../journal/idempotency";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { engineText, type TextKey } from "../locales/engine-texts";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";

const MESSAGES: Record<Exclude<TransferCode, "OK">, TextKey> = {
  [KEY_REUSED]: "spot.key_reused",
  RISK_INSUFFICIENT_AVAILABLE: "spot.insufficient",
  ORDER_BAD_COMMAND: "spot.bad_order",
};

const REASONS: Record<Exclude<TransferCode, "OK">, RefusalReason> = {
  [KEY_REUSED]: "IDEMPOTENCY_KEY_REUSED",
  RISK_INSUFFICIENT_AVAILABLE: "RISK_INSUFFICIENT_AVAILABLE",
  ORDER_BAD_COMMAND: "ORDER_BAD_COMMAND",
};

/** A member's balances and transfers between their own accounts, and operators' deposits (spec §7 "Wallet"). */
export function registerFundsRoutes(api: ApiContext, funds: Funds): void {
  /** A refusal changes nothing; a key reused for another transfer is a conflict (409). */
  const refuse = (code: Exclude<TransferCode, "OK">, lang: Parameters<typeof engineText>[0]) => {
    const text = engineText(lang, MESSAGES[code]);
    return code === KEY_REUSED ? new ApiError(ResultCode.CONFLICT, text, REASONS[code]) : ApiError.badRequest(text, REASONS[code]);
  };

  memberEndpoint(api, endpoints.balances, async ({ query, memberId }) => funds.balances(memberId, ACCOUNTS[query.type]));

  memberEndpoint(api, endpoints.transfer, async ({ query, memberId, lang }) => {
    // Refused in a transfer's own words (the ledger's code for all three speaks of an order).
    if (query.from === query.to) throw ApiError.badRequest(engineText(lang, "wallet.same_account"), "ORDER_BAD_COMMAND");
    const scale = funds.scaleOf(query.coin);
    if (scale === undefined) throw ApiError.badRequest(engineText(lang, "assets.unknown_coin", { coin: query.coin }), "COIN_UNKNOWN");
    if (!fitsScale(query.amount, scale)) throw ApiError.badRequest(engineText(lang, "wallet.too_precise", { coin: query.coin, scale }), "AMOUNT_PRECISION");
    const code = await funds.transferBetween(
      memberId,
      query.coin,
      ACCOUNTS[query.from],
      ACCOUNTS[query.to],
      query.amount,
      `trans:${memberId}:${query.idempotencyKey}`,
    );
    if (code !== "OK") throw refuse(code, lang);
    return null;
  });

  operatorEndpoint(api, endpoints.adminDeposit, async ({ body, act, now }) => {
    const memberId = await api.members.idOfUid(body.uid);
    if (!memberId) throw ApiError.notFound(`no member with uid ${body.uid}`);
    const scale = funds.scaleOf(body.coin);
    if (scale === undefined) throw ApiError.badRequest(`no coin ${body.coin} is listed`, "COIN_UNKNOWN");
    if (!fitsScale(body.amount, scale)) throw ApiError.badRequest(`${body.coin} keeps ${scale} decimals: the amount has more`, "AMOUNT_PRECISION");
    const audit = () => act.row(`member:${body.uid}`, null, { coin: body.coin, account: body.account, amount: body.amount, reference: body.reference }, now);
    const ok = await funds.deposit(memberId, body.coin, body.account, body.amount, `deposit:${body.reference}`, undefined, audit);
    // False only for a reference credited already; a failure of the ledger itself is not that.
    if (!ok) throw new ApiError(ResultCode.CONFLICT, `a deposit with the reference ${body.reference} was credited already`, "DECIDED_ALREADY");
    return null;
  });
}

/** Whether a decimal text has no more decimals than `scale` (trailing zeros aside). */
function fitsScale(amount: string, scale: number): boolean {
  try {
    toMinor(amount, scale);
    return true;
  } catch {
    return false;
  }
}
