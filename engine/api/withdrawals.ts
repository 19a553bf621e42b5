import { endpoints } from "../../protocol/endpoints";
import type { WithdrawalView } from "../../protocol/endpoints/withdrawals";
import { engineText } from "../locales/engine-texts";
import { ResultCode } from "../../protocol/result-codes";
import { KEY_REUSED } from "../journal/idempotency";
import { Refusal } from "../locales/refusal";
import { pageOf } from "../store/paging";
import type { WithdrawalRequests } from "../wallet/withdrawal-requests";
import { WITHDRAWAL_ON_CHAIN, type WithdrawalRow, type WithdrawalService, type WithdrawalServiceCode } from "../wallet/withdrawal-service";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";

const PAGE_SIZE = 20;

/**
 * A member's withdrawals and the operators' review (spec §7 "Wallet"). A member sees and cancels
 * only their own: another member's withdrawal is answered like one that does not exist.
 */
export function registerWithdrawalRoutes(api: ApiContext, withdrawals: WithdrawalService, requests: WithdrawalRequests): void {
  // The demo member's login is public: nobody may send its funds anywhere.
  memberEndpoint(
    api,
    endpoints.withdraw,
    async ({ body, memberId, now }) => {
      const answer = await requests.request(memberId, body, now);
      if (answer.code === "OK") return { id: answer.id!, state: answer.state! };
      throw refusalOf(answer.code);
    },
    { securityChange: true },
  );

  memberEndpoint(api, endpoints.myWithdrawals, async ({ query, memberId }) => {
    const paging = { pageNo: query.pageNo ?? 1, pageSize: query.pageSize ?? PAGE_SIZE };
    const { records, total } = await withdrawals.ofMember(memberId, {
      ...paging,
      ...(query.coin ? { coin: query.coin } : {}),
      ...(query.state ? { state: query.state } : {}),
    });
    return pageOf(records.map(view), total, paging);
  });

  memberEndpoint(api, endpoints.cancelWithdrawal, async ({ params, memberId, lang }) => {
    const code = await withdrawals.cancel(memberId, params.withdrawalId);
    if (code === "WITHDRAWAL_UNKNOWN") throw ApiError.badRequest(engineText(lang, "withdrawals.unknown"), code);
    if (code !== "OK") throw ApiError.badRequest(engineText(lang, "withdrawals.wrong_state"), "WITHDRAWAL_WRONG_STATE");
    return null;
  });

  operatorEndpoint(api, endpoints.adminWithdrawals, async ({ query }) =>
    (await withdrawals.inState(query.state)).map((row) => ({ ...view(row), uid: row.uid ?? "" })),
  );

  operatorEndpoint(api, endpoints.adminWithdrawalReview, async ({ body, act }) => {
    const code: WithdrawalServiceCode = await withdrawals.review(body.id, body.decision, body.reason, act, body.from);
    if (code === "WITHDRAWAL_UNKNOWN") throw ApiError.notFound(`no open withdrawal ${body.id}`);
    if (code === WITHDRAWAL_ON_CHAIN)
      throw ApiError.badRequest(`withdrawal ${body.id} is already on its chain: it is being sent and can no longer be rejected`, "WITHDRAWAL_WRONG_STATE");
    // Where the operator saw it (`from`, the console's) is no longer where it stands: another operator decided first.
    const now = code === "OK" || !body.from ? undefined : await withdrawals.stateOf(body.id);
    if (now !== undefined && now !== body.from)
      throw new ApiError(ResultCode.CONFLICT, `withdrawal ${body.id} is ${now} now: another operator decided it first`, "DECIDED_ALREADY");
    if (code !== "OK") throw ApiError.badRequest(engineText("en", "withdrawals.review_state"), "WITHDRAWAL_WRONG_STATE");
    return null;
  });
}

/** A refusal of the core or the key: the balance, or a key used for another request. */
function refusalOf(code: WithdrawalServiceCode): Refusal {
  if (code === "RISK_INSUFFICIENT_AVAILABLE") return Refusal.of(ResultCode.BAD_REQUEST, "spot.insufficient", {}, "RISK_INSUFFICIENT_AVAILABLE");
  if (code === KEY_REUSED) return Refusal.of(ResultCode.CONFLICT, "spot.key_reused", {}, "IDEMPOTENCY_KEY_REUSED");
  return Refusal.of(ResultCode.BAD_REQUEST, "spot.bad_order", {}, "ORDER_BAD_COMMAND");
}

function view(row: WithdrawalRow): WithdrawalView {
  const { memberId: _member, uid: _uid, state, ...rest } = row;
  return { ...rest, state: state as WithdrawalView["state"] };
}
