import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type * as z from "zod";
import type { Endpoint } from "../../protocol/endpoints";
import { ResultCode } from "../../protocol/result-codes";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { registerEndpoint, type EndpointInput } from "./register";

/** The header operator calls carry their token in. */
export const ADMIN_TOKEN_HEADER = "x-admin-token";

export type OperatorHandler<E extends Endpoint> = (input: EndpointInput<E> & { now: number }) => Promise<z.input<E["response"]>>;

/**
 * Registers an operator call (deposits, market changes, KYC review, the dev mailbox): after the
 * input is parsed, the admin token is checked (else 403). Operator refusals are not translated.
 */
export function operatorEndpoint<E extends Endpoint>(api: ApiContext, endpoint: E, handler: OperatorHandler<E>): void {
  registerEndpoint(api.app, api.apiHead, endpoint, async (input) => {
    requireAdmin(input.request, api.services.adminToken);
    return handler({ ...input, now: api.services.now() });
  });
}

/** Operator calls carry the admin token (`x-admin-token`); compared in constant time. */
function requireAdmin(request: FastifyRequest, adminToken: string): void {
  const given = Buffer.from(String(request.headers[ADMIN_TOKEN_HEADER] ?? ""));
  const expected = Buffer.from(adminToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError(ResultCode.FORBIDDEN, "admin token required", "FORBIDDEN");
  }
}
