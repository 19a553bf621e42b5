import { endpoints } from "#protocol/endpoints";
import type { SubscriptionStatusView } from "#protocol/endpoints/subscription";
import type { EngineCall } from "../call.server";

/** New-coin (type 1) and ETF (type 2) subscription projects (decision 053): anyone's. */
export function subscriptionMarketArea(call: EngineCall) {
  return {
    /** The projects of a type, open and upcoming first, then the ended. */
    projects: (type: 1 | 2) => call(endpoints.subscriptionProjects, { params: { type: type === 2 ? "2" : "1" } }),
    project: (projectId: string) => call(endpoints.subscriptionProject, { params: { projectId } }),
  };
}

/** A member's subscriptions (decision 053): what they asked of a project, subscribing, their purchase records, the return application. */
export function subscriptionArea(call: EngineCall) {
  return {
    asked: (projectId: string) => call(endpoints.subscriptionAsked, { params: { projectId } }),
    subscribe: (projectId: string, quantity: string, idempotencyKey: string) => call(endpoints.subscribe, { body: { projectId, quantity, idempotencyKey } }),
    records: (type: 1 | 2, pageNo: number, pageSize: number, query: { status?: SubscriptionStatusView; projectId?: string } = {}) =>
      call(endpoints.subscriptionRecords, { params: { type: type === 2 ? "2" : "1", pageNo: String(pageNo), pageSize: String(pageSize) }, query }),
    /** The return application's status (only where the deployment offers it). */
    returnStatus: () => call(endpoints.returnApplyQuery, {}),
    applyForReturn: (idempotencyKey: string) => call(endpoints.returnApply, { body: { idempotencyKey } }),
  };
}
