import { ResultCode } from "../../protocol/result-codes";

/**
 * A refusal the API answers on purpose (not a bug): its code and message go to the client as is.
 * Anything else that is thrown is a bug and answers a generic 500 without details.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }

  static notFound(what = "not found") {
    return new ApiError(ResultCode.NOT_FOUND, what);
  }

  static badRequest(message: string) {
    return new ApiError(ResultCode.BAD_REQUEST, message);
  }
}
