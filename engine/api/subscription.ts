import { endpoints } from "../../protocol/endpoints";
import type { LanguageCode } from "../../protocol/languages";
import { fromMinor } from "../../protocol/money";
import type { RefusalReason } from "../../protocol/refusal-reasons";
import { ResultCode } from "../../protocol/result-codes";
import type { SubscriptionProject } from "../core/earn/subscriptions";
import { projectView, SubscriptionReads } from "../earn/sub-reads";
import type { SubscriptionService, SubscriptionServiceCode } from "../earn/sub-service";
import { KEY_REUSED } from "../journal/idempotency";
import { engineText, requestLanguage, type TextKey } from "../locales/engine-texts";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";
import { registerEndpoint } from "./register";

const MESSAGES: Record<Exclude<SubscriptionServiceCode, "OK">, TextKey> = {
  [KEY_REUSED]: "subscription.key_reused",
  SUB_UNKNOWN_PROJECT: "subscription.unknown_project",
  SUB_NOT_OPEN: "subscription.not_open",
  SUB_BAD_QUANTITY: "subscription.bad_quantity",
  SUB_BELOW_MINIMUM: "subscription.below_minimum",
  SUB_ABOVE_MEMBER_LIMIT: "subscription.above_member_limit",
  SUB_INSUFFICIENT: "subscription.insufficient",
  SUB_NOTHING_TO_RETURN: "subscription.nothing_to_return",
  SUB_UNKNOWN_APPLICATION: "subscription.unknown_application",
  SUB_PROJECT_STARTED: "subscription.project_started",
  SUB_BAD_RULES: "subscription.bad_rules",
};

/**
 * New-coin and ETF subscriptions over the API (issue 32, decision 053): projects to anyone, from
 * memory; a member's subscriptions and return application through `SubscriptionService`, each once
 * per idempotency key; records and the return status from the tables; operators' projects and
 * payments. The return application is served only where the deployment variant shows its button
 * (decision 005): elsewhere its calls answer "not found".
 */
export function registerSubscriptionRoutes(
  api: ApiContext,
  service: SubscriptionService,
  options: { returnApply: boolean; names: () => Promise<ReadonlyMap<string, string>> },
): void {
  const { app, apiHead } = api;
  const core = service.durable.core;
  const subs = core.subscriptions;
  const now = () => service.durable.now();
  const reads = new SubscriptionReads(service.durable.db, (memberId) => service.durable.projectedFor(memberId), now);

  const projectOf = (projectId: string, lang: LanguageCode): SubscriptionProject => {
    const p = subs.projects.get(projectId);
    if (!p) throw ApiError.notFound(engineText(lang, "subscription.unknown_project"), "SUB_UNKNOWN_PROJECT");
    return p;
  };
  const refuse = (code: SubscriptionServiceCode, lang: LanguageCode, p: SubscriptionProject | null, memberId: string) => {
    const failed = code as Exclude<SubscriptionServiceCode, "OK">;
    const coin = (v: bigint) => (p ? fromMinor(v < 0n ? 0n : v, core.scaleOf(p.asset), { trim: true }) : "0");
    const params: Record<string, string> = p
      ? {
          coin: p.asset,
          payCoin: p.quoteAsset,
          lot: coin(p.lot),
          min: coin(p.minPerMember),
          max: coin(p.maxPerMember),
          left: coin(p.maxPerMember - subs.requestedIn(p.id, memberId)),
          start: new Date(p.startAt).toISOString(),
          end: new Date(p.endAt).toISOString(),
        }
      : {};
    const message = engineText(lang, MESSAGES[failed] ?? "subscription.bad_quantity", params);
    const reason: RefusalReason = code === KEY_REUSED ? "IDEMPOTENCY_KEY_REUSED" : failed === KEY_REUSED ? "VALIDATION" : failed;
    if (code === KEY_REUSED) return new ApiError(ResultCode.CONFLICT, message, reason);
    return failed === "SUB_UNKNOWN_PROJECT" ? ApiError.notFound(message, reason) : ApiError.badRequest(message, reason);
  };
  const notOffered = (lang: LanguageCode) => ApiError.notFound(engineText(lang, "subscription.return_not_offered"), "NOT_FOUND");

  registerEndpoint(app, apiHead, endpoints.subscriptionProjects, async ({ params }) => {
    const names = await options.names();
    const at = now();
    const order = { open: 0, upcoming: 1, closed: 2, allotted: 3 } as const;
    return [...subs.projects.values()]
      .filter((p) => p.type === params.type)
      .map((p) => projectView(core, p, names, at))
      .sort((a, b) => order[a.phase] - order[b.phase] || (a.phase === "allotted" ? b.endAt.localeCompare(a.endAt) : a.endAt.localeCompare(b.endAt)));
  });

  registerEndpoint(app, apiHead, endpoints.subscriptionProject, async ({ params, request }) =>
    projectView(core, projectOf(params.projectId, requestLanguage(request.headers)), await options.names(), now()),
  );

  memberEndpoint(api, endpoints.subscriptionAsked, async ({ params, memberId, lang }) => {
    const p = projectOf(params.projectId, lang);
    const asked = subs.requestedIn(p.id, memberId);
    const scale = core.scaleOf(p.asset);
    const left = p.allottedAt === null ? p.maxPerMember - asked : 0n;
    return { asked: fromMinor(asked, scale, { trim: true }), left: fromMinor(left < 0n ? 0n : left, scale, { trim: true }) };
  });

  memberEndpoint(api, endpoints.subscribe, async ({ body, memberId, lang }) => {
    const p = projectOf(body.projectId, lang);
    const { code, subscriptionId } = await service.subscribe(memberId, { projectId: body.projectId, quantity: body.quantity }, body.idempotencyKey);
    if (code !== "OK") throw refuse(code, lang, p, memberId);
    // The record of this key's subscription (a retry's too, however many came after it).
    const record = await reads.record(memberId, subscriptionId!);
    if (!record) throw ApiError.notFound(engineText(lang, "subscription.unknown_project"), "SUB_UNKNOWN_PROJECT");
    return record;
  });

  memberEndpoint(api, endpoints.subscriptionRecords, async ({ params, query, memberId }) =>
    reads.records(
      memberId,
      params.type,
      { ...(query.status !== undefined ? { status: query.status } : {}), ...(query.projectId !== undefined ? { projectId: query.projectId } : {}) },
      { pageNo: params.pageNo, pageSize: params.pageSize },
    ),
  );

  memberEndpoint(api, endpoints.returnApplyQuery, async ({ memberId, lang }) => {
    if (!options.returnApply) throw notOffered(lang);
    return reads.returnStatus(memberId);
  });

  memberEndpoint(api, endpoints.returnApply, async ({ body, memberId, lang }) => {
    if (!options.returnApply) throw notOffered(lang);
    const code = await service.applyForReturn(memberId, body.idempotencyKey);
    if (code !== "OK") throw refuse(code, lang, null, memberId);
    return reads.returnStatus(memberId);
  });

  operatorEndpoint(api, endpoints.opsSubscriptionProjects, async () => {
    const names = await options.names();
    const count = await reads.subscriptionCounts();
    const at = now();
    return [...subs.projects.values()]
      .sort((a, b) => b.startAt - a.startAt || (a.id < b.id ? -1 : 1))
      .map((p) => ({ ...projectView(core, p, names, at), subscriptions: count.get(p.id) ?? 0 }));
  });

  operatorEndpoint(api, endpoints.adminSubscriptionProject, async ({ body, act }) => {
    // Where the variant shows no return button, nothing may wait for an application: it could never be made.
    if (body.returnByApplication && !options.returnApply)
      throw ApiError.badRequest("this deployment variant has no return application: its projects return at once", "SUB_BAD_RULES");
    const outcome = await service.setProject(
      {
        id: body.projectId,
        projectType: body.type,
        asset: body.coin,
        quoteAsset: body.payCoin,
        price: body.price,
        lot: body.lot,
        supply: body.supply,
        minPerMember: body.minPerMember,
        maxPerMember: body.maxPerMember,
        startAt: Date.parse(body.startAt),
        endAt: Date.parse(body.endAt),
        returnByApplication: body.returnByApplication,
      },
      act,
    );
    if (outcome.code !== "OK")
      throw ApiError.badRequest(
        outcome.problem ?? engineText("en", MESSAGES[outcome.code] ?? "subscription.bad_rules"),
        outcome.code === KEY_REUSED ? "VALIDATION" : outcome.code,
      );
    return projectView(core, subs.projects.get(body.projectId)!, await options.names(), now());
  });

  const applicationView = (id: string, uids: ReadonlyMap<string, string>) => {
    const a = subs.application(id);
    if (!a) return null;
    const amounts = new Map<string, bigint>();
    for (const sid of a.subscriptionIds) {
      const s = subs.subscription(sid);
      if (!s) continue;
      const coin = subs.projects.get(s.projectId)!.quoteAsset;
      amounts.set(coin, (amounts.get(coin) ?? 0n) + s.refund);
    }
    return {
      applicationId: a.id,
      uid: uids.get(a.owner) ?? a.owner,
      createdAt: new Date(a.createdAt).toISOString(),
      amounts: [...amounts].map(([coin, v]) => ({ coin, amount: fromMinor(v, core.scaleOf(coin), { trim: true }) })),
      subscriptions: a.subscriptionIds.length,
    };
  };

  operatorEndpoint(api, endpoints.opsReturnApplications, async () => {
    const pending = [...subs.pendingApplications()].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    const uids = await reads.uidsOf([...new Set(pending.map((a) => a.owner))]);
    return pending.map((a) => applicationView(a.id, uids)!);
  });

  operatorEndpoint(api, endpoints.adminPayReturn, async ({ body, act }) => {
    if (!options.returnApply) throw notOffered("en");
    const owner = subs.application(body.applicationId)?.owner;
    const view = applicationView(body.applicationId, await reads.uidsOf(owner ? [owner] : []));
    if (!view) throw ApiError.notFound(engineText("en", "subscription.unknown_application"), "SUB_UNKNOWN_APPLICATION");
    const code = await service.payReturn(body.applicationId, act);
    if (code !== "OK")
      throw ApiError.badRequest(engineText("en", MESSAGES[code] ?? "subscription.unknown_application"), code === KEY_REUSED ? "VALIDATION" : code);
    return view;
  });
}
