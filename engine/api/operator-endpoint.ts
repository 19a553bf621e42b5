import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type * as z from "zod";
import type { Endpoint } from "../../protocol/endpoints";
import { auditActionOf, OPERATOR_TOKEN_HEADER, roleMay } from "../../protocol/operators";
import { ResultCode } from "../../protocol/result-codes";
import { OperatorAct, type OperatorActor } from "../operators/audit";
import { ApiError } from "./api-error";
import { addressIn, type ApiContext } from "./context";
import { registerEndpoint, type EndpointInput } from "./register";

/** The header the CLI carries the data folder's token in. */
export const ADMIN_TOKEN_HEADER = "x-admin-token";

export type OperatorHandler<E extends Endpoint> = (input: EndpointInput<E> & { now: number; act: OperatorAct }) => Promise<z.input<E["response"]>>;

const actors = new WeakMap<FastifyRequest, OperatorActor>();

/**
 * Registers an operator call (decision 043). Its caller is found first, as the request arrives and
 * before its body is read (a stranger's malformed body is a 403 too, never a 400 that names the
 * fields): an operator's session token (the console; `x-operator-token`) or the data folder's
 * admin token (the CLI, acting as admin). The caller's role must permit the endpoint's
 * `operator` permission (protocol/operators.ts), else 403. The handler gets the call's
 * `OperatorAct`: a call that changes something writes exactly one audit row with its change (a POST;
 * a GET writes none); a refused call none. Operator refusals are not translated (the
 * console words them by their reason).
 */
export function operatorEndpoint<E extends Endpoint>(api: ApiContext, endpoint: E, handler: OperatorHandler<E>): void {
  const permission = endpoint.operator;
  if (!permission) throw new Error(`${endpoint.path} is not declared as an operator call (its permission)`);
  const action = auditActionOf(endpoint.path);
  const changes = endpoint.method === "POST";
  registerEndpoint(
    api.app,
    api.apiHead,
    endpoint,
    async (input) => {
      const act = new OperatorAct(actors.get(input.request)!, action);
      const answer = await handler({ ...input, now: api.services.now(), act });
      if (changes && act.recorded !== 1) console.error(`operator call ${action} answered with ${act.recorded} audit rows (one expected)`);
      return answer;
    },
    async (request) => {
      const actor = await callerOf(api, request);
      if (!roleMay(actor.role, permission)) throw new ApiError(ResultCode.FORBIDDEN, `the role ${actor.role} may not ${permission}`, "OPERATOR_ROLE");
      actors.set(request, actor);
    },
  );
}

/** The caller of an operator request: an operator's live session, or the CLI with the admin token; else 401/403. */
export async function callerOf(api: ApiContext, request: FastifyRequest): Promise<OperatorActor> {
  refuseOutsideOperatorNetworks(api, request);
  const session = request.headers[OPERATOR_TOKEN_HEADER];
  if (typeof session === "string" && session) {
    const actor = await api.operators.actorOf(session, request.ip, api.services.now());
    if (!actor) throw new ApiError(ResultCode.UNAUTHORIZED, "the operator session ended: log in again", "UNAUTHORIZED");
    return actor;
  }
  if (isAdminToken(request, api.services.adminToken)) return { operatorId: null, name: "cli", role: "admin", via: "cli", address: request.ip };
  throw new ApiError(ResultCode.FORBIDDEN, "an operator session or the admin token is required", "FORBIDDEN");
}

/** Operators work only from the configured networks (`OPERATOR_NETWORKS`), when there are any: else 403. */
export function refuseOutsideOperatorNetworks(api: ApiContext, request: FastifyRequest): void {
  const networks = api.services.operatorNetworks;
  if (networks && !addressIn(networks, request.ip)) throw new ApiError(ResultCode.FORBIDDEN, "operators cannot work from this address", "FORBIDDEN");
}

/** The data folder's admin token (`x-admin-token`), compared in constant time. */
function isAdminToken(request: FastifyRequest, adminToken: string): boolean {
  const given = Buffer.from(String(request.headers[ADMIN_TOKEN_HEADER] ?? ""));
  const expected = Buffer.from(adminToken);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
