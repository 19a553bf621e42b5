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
 * Registers an operator call (deposits, market changes, KYC review, the dev mailbox): the admin
 * token is checked first (else 403), before the input is read: a stranger's malformed body is a
 * 403 too, never a 400 that names the fields the call takes. Operator refusals are not translated.
 */
export function operatorEndpoint<E extends Endpoint>(api: ApiContext, endpoint: E, handler: OperatorHandler<E>): void {
  registerEndpoint(
    api.app,
    api.apiHead,
    endpoint,
    async (input) => handler({ ...input, now: api.services.now() }),
    (request) => requireAdmin(request, api.services.adminToken),
  );
}

/** Operator calls carry the admin token (`x-admin-token`); compared in constant time. */
function requireAdmin(request: FastifyRequest, adminToken: string): void {
  const given = Buffer.from(String(request.headers[ADMIN_TOKEN_HEADER] ?? ""));
  const expected = Buffer.from(adminToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError(ResultCode.FORBIDDEN, "admin token required", "FORBIDDEN");
  }
}
