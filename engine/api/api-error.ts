import { reasonOfResultCode, type RefusalReason } from "../../protocol/refusal-reasons";
import { ResultCode } from "../../protocol/result-codes";

/**
 * A refusal the API answers on purpose (not a bug): its code, message and reason code
 * (`protocol/refusal-reasons.ts`; by default the result code's generic one) go to the client as
 * they are. Anything else that is thrown is a bug and answers a generic 500 without details.
 */
export class ApiError extends Error {
  readonly reason: RefusalReason;

  constructor(
    readonly code: number,
    message: string,
    reason?: RefusalReason,
  ) {
    super(message);
    this.name = "ApiError";
    this.reason = reason ?? reasonOfResultCode(code);
  }

  static notFound(what = "not found", reason?: RefusalReason) {
    return new ApiError(ResultCode.NOT_FOUND, what, reason);
  }

  static badRequest(message: string, reason?: RefusalReason) {
    return new ApiError(ResultCode.BAD_REQUEST, message, reason);
  }
}
