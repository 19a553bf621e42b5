import type { FastifyRequest } from "fastify";
import { endpoints } from "../../protocol/endpoints";
import { OPERATOR_TOKEN_HEADER } from "../../protocol/operators";
import type { Dashboard } from "../operators/dashboard";
import type { OutboxLog } from "../delivery/outbox-log";
import type { AuditLog } from "../operators/audit";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { operatorEndpoint, refuseOutsideOperatorNetworks } from "./operator-endpoint";
import { registerEndpoint } from "./register";

/** Audit rows a page shows, and an export holds at most. */
const AUDIT_PAGE = 50;
const AUDIT_EXPORT_ROWS = 100_000;
/** Outbox messages a page shows. */
const OUTBOX_PAGE = 50;

/**
 * The operators' own calls (issue 29, decision 043): login (with the authenticator set up at the
 * first), the session's end, who is signed in, operators managed by admins, the audit log and the
 * dashboard. The area calls (KYC, withdrawals, markets, deposits) register theirs beside their
 * member calls, through the same `operatorEndpoint`.
 */
export function registerOperatorRoutes(api: ApiContext, audit: AuditLog, dashboard: Dashboard, outbox: OutboxLog): void {
  const { operators, services } = api;
  const client = (request: { ip: string; headers: Record<string, unknown> }) => ({
    ip: request.ip,
    userAgent: String(request.headers["user-agent"] ?? ""),
  });

  const fromOperatorNetworks = (request: FastifyRequest) => refuseOutsideOperatorNetworks(api, request);
  registerEndpoint(
    api.app,
    api.apiHead,
    endpoints.opsLogin,
    ({ body, request }) => operators.login({ ...body, ...client(request) }, services.now()),
    fromOperatorNetworks,
  );
  registerEndpoint(
    api.app,
    api.apiHead,
    endpoints.opsCompleteSetup,
    ({ body, request }) => operators.completeSetup({ ...body, ...client(request) }, services.now()),
    fromOperatorNetworks,
  );
  registerEndpoint(api.app, api.apiHead, endpoints.opsLogout, async ({ request }) => {
    const token = request.headers[OPERATOR_TOKEN_HEADER];
    if (typeof token === "string" && token) await operators.logout(token, services.now());
    return null;
  });

  operatorEndpoint(api, endpoints.opsSelf, async ({ act }) => {
    // The CLI has no operator row: it is the data folder's admin.
    if (act.actor.operatorId === null) throw ApiError.badRequest("the CLI acts as admin with the data folder's token: it has no operator session");
    return operators.self(act.actor.operatorId);
  });
  operatorEndpoint(api, endpoints.opsOperators, () => operators.list());
  operatorEndpoint(api, endpoints.opsOperatorAdd, ({ body, act, now }) => operators.add(body, act, now));
  operatorEndpoint(api, endpoints.opsOperatorUpdate, ({ body, act, now }) => {
    const { id, ...change } = body;
    return operators.update(id, change, act, now);
  });
  operatorEndpoint(api, endpoints.opsAudit, ({ query }) => {
    const { before, ...filter } = query;
    return audit.list(filter, { ...(before ? { before } : {}), size: AUDIT_PAGE });
  });
  operatorEndpoint(api, endpoints.opsAuditCsv, async ({ query }) => {
    const { text, truncated } = await audit.csv(query, AUDIT_EXPORT_ROWS);
    return { csv: text, truncated };
  });
  operatorEndpoint(api, endpoints.opsDashboard, () => dashboard.read());
  operatorEndpoint(api, endpoints.opsOutbox, ({ query }) => outbox.list(query, OUTBOX_PAGE));
}
