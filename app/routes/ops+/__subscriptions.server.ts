import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { decimalMarkOf, readDecimalInput } from "#protocol/decimal-input";
import { compareDecimal } from "#protocol/decimal";
import { endpoints } from "#protocol/endpoints";
import { COIN_PATTERN } from "#protocol/fields";
import { keyError } from "~/lib/forms/form-error";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import { loadSite } from "~/services/platform/site.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { utcMillisOf } from "./__audit.server";
import { send, textOf } from "./__rule-forms.server";

/*
 * The console's subscriptions page (`subscriptions.tsx`; issue 32, decision 053): new-coin and ETF
 * projects (`markets.read` sees them, `markets.change` adds one or changes one before its window
 * opens) and the members' return applications (`withdrawals.read` sees them, `withdrawals.review`
 * pays them). Apart from the route module so what reads the forms stays on the server (decision 037).
 */

export const SUBSCRIPTIONS_PAGE = "/ops/subscriptions";

/** What the project form posts, as typed: the decimals in the operator's language, the window as UTC. */
export const PROJECT_FIELDS = ["projectId", "type", "coin", "payCoin", "price", "lot", "supply", "minPerMember", "maxPerMember", "startAt", "endAt"] as const;
export type ProjectField = (typeof PROJECT_FIELDS)[number];
const DECIMAL_FIELDS = ["price", "lot", "supply", "minPerMember", "maxPerMember"] as const;
/** The form that adds a project; a change names its project. */
export const NEW_PROJECT = "new";
const PROJECT_ID = /^[A-Za-z0-9_-]{1,40}$/;

export interface ProjectRefusal {
  /** The form refused: `NEW_PROJECT` or the project changed (null: the page's own error). */
  projectId: string | null;
  error?: string;
  fields?: Partial<Record<ProjectField, string>>;
  values?: Partial<Record<ProjectField | "returnByApplication", string>>;
}

export interface PayRefusal {
  applicationId: string | null;
  error: string;
}

export type SubscriptionsRefusal = { refusal: ProjectRefusal } | { payRefusal: PayRefusal };

/**
 * A time as the form takes it: a `datetime-local` value (`2026-12-01T12:00`, seconds optional)
 * read as UTC, or a whole ISO 8601 time with its offset (`2026-12-01T12:00:00Z`), as pasted.
 */
export function projectTimeOf(value: string): number | null {
  const text = value.trim();
  const local = utcMillisOf(text);
  if (local !== null) return local;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && utcMillisOf(text.slice(0, 16)) !== null ? ms : null;
}

/** Every project, and the pending return applications where the role may read them. */
export function loadSubscriptions(args: LoaderFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops }) => {
    const mayReadReturns = ops.may("withdrawals.read");
    const [projects, returns, site] = await Promise.all([
      ops.call(endpoints.opsSubscriptionProjects),
      mayReadReturns ? ops.call(endpoints.opsReturnApplications) : Promise.resolve(null),
      loadSite(),
    ]);
    return data(
      {
        projects,
        returns,
        mayChange: ops.may("markets.change"),
        mayPay: ops.may("withdrawals.review"),
        mark: decimalMarkOf(ops.lang),
        // The variant's return application (decision 005): without it, no project's returns wait for one.
        returnApply: site.config.returnApplyEnabled,
      },
      { headers: OPS_HEADERS },
    );
  });
}

/**
 * `intent=project`: a project's rules, new (`form=new`) or changed before its window opens, each
 * field as typed in the operator's language and the window in UTC; checked here for what the
 * operator can mend field by field, then whole by the engine (its refusal is the form's error).
 * `intent=pay`: pays a return application. Done: back to the page with a toast; refused: the
 * form's errors, nothing changed.
 */
export function subscriptionsAction(args: ActionFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops, request }) => {
    const refuse = (refusal: ProjectRefusal, status = 400) => data({ refusal } satisfies SubscriptionsRefusal, { status, headers: OPS_HEADERS });
    const refusePay = (payRefusal: PayRefusal, status = 400) => data({ payRefusal } satisfies SubscriptionsRefusal, { status, headers: OPS_HEADERS });
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return refuse({ projectId: null, error: keyError("ops.errors.invalid") });
    }
    const intent = textOf(form, "intent");

    if (intent === "pay") {
      const applicationId = textOf(form, "applicationId") ?? "";
      if (!ops.may("withdrawals.review")) return refusePay({ applicationId: null, error: keyError("ops.errors.role_denied") }, 403);
      if (!/^[A-Za-z0-9._-]{1,64}$/.test(applicationId)) return refusePay({ applicationId: null, error: keyError("ops.errors.item") });
      const done = await ops.attempt(() => ops.call(endpoints.adminPayReturn, { body: { applicationId } }));
      if (!done.ok) return refusePay({ applicationId, error: done.error });
      const amounts = done.value.amounts.map((a) => `${a.amount} ${a.coin}`).join(", ");
      return redirectWithToast(
        request,
        SUBSCRIPTIONS_PAGE,
        { type: "success", key: "ops.subscriptions.paid", values: { id: applicationId, member: done.value.uid, amounts } },
        { headers: OPS_HEADERS },
      );
    }

    if (intent !== "project") return refuse({ projectId: null, error: keyError("ops.errors.invalid") });
    if (!ops.may("markets.change")) return refuse({ projectId: null, error: keyError("ops.errors.role_denied") }, 403);
    const adding = textOf(form, "form") === NEW_PROJECT;
    const typed = Object.fromEntries(PROJECT_FIELDS.map((f) => [f, textOf(form, f) ?? ""])) as Record<ProjectField, string>;
    const returnByApplication = form.get("returnByApplication") === "on";
    const values = { ...typed, ...(returnByApplication ? { returnByApplication: "on" } : {}) };
    const formKey = adding ? NEW_PROJECT : typed.projectId;
    if (!adding && !PROJECT_ID.test(typed.projectId)) return refuse({ projectId: null, error: keyError("ops.errors.invalid") });
    const projects = await ops.call(endpoints.opsSubscriptionProjects);
    const existing = projects.find((p) => p.projectId === typed.projectId.trim());
    if (!adding && !existing) return refuse({ projectId: null, error: keyError("ops.subscriptions.unknown_project", { project: typed.projectId }) });

    const mark = decimalMarkOf(ops.lang);
    const fields: Partial<Record<ProjectField, string>> = {};
    if (adding) {
      if (!PROJECT_ID.test(typed.projectId.trim())) fields.projectId = "ops.subscriptions.bad_project_id";
      else if (existing) fields.projectId = "ops.subscriptions.project_exists";
    }
    if (typed.type !== "1" && typed.type !== "2") fields.type = "ops.subscriptions.bad_type";
    const coin = typed.coin.trim().toUpperCase();
    const payCoin = typed.payCoin.trim().toUpperCase();
    if (!COIN_PATTERN.test(coin)) fields.coin = "ops.subscriptions.bad_coin";
    if (!COIN_PATTERN.test(payCoin)) fields.payCoin = "ops.subscriptions.bad_coin";
    else if (payCoin === coin) fields.payCoin = "ops.subscriptions.same_coin";
    const read: Partial<Record<(typeof DECIMAL_FIELDS)[number], string>> = {};
    for (const field of DECIMAL_FIELDS) {
      const got = readDecimalInput(typed[field], { scale: 18, mark });
      if (!got.ok) fields[field] = got.error === "required" ? "ops.errors.value_required" : `validation.number.${got.error}`;
      else read[field] = got.value;
    }
    if (read.minPerMember && read.maxPerMember && compareDecimal(read.minPerMember, read.maxPerMember) > 0)
      fields.minPerMember = "ops.subscriptions.min_above_max";
    // The form shows a time to the second: the same second as the project's keeps its exact time.
    const sameSecond = (ms: number | null, was: string | undefined) =>
      ms !== null && was !== undefined && Math.floor(Date.parse(was) / 1000) === Math.floor(ms / 1000) ? Date.parse(was) : ms;
    const startAt = sameSecond(projectTimeOf(typed.startAt), existing?.startAt);
    const endAt = sameSecond(projectTimeOf(typed.endAt), existing?.endAt);
    if (startAt === null) fields.startAt = typed.startAt.trim() ? "ops.subscriptions.bad_time" : "ops.errors.value_required";
    if (endAt === null) fields.endAt = typed.endAt.trim() ? "ops.subscriptions.bad_time" : "ops.errors.value_required";
    else if (startAt !== null && endAt <= startAt) fields.endAt = "ops.subscriptions.end_before_start";
    if (Object.keys(fields).length) return refuse({ projectId: formKey, fields, values });

    const body = {
      projectId: adding ? typed.projectId.trim() : typed.projectId,
      type: typed.type === "2" ? (2 as const) : (1 as const),
      coin,
      payCoin,
      price: read.price!,
      lot: read.lot!,
      supply: read.supply!,
      minPerMember: read.minPerMember!,
      maxPerMember: read.maxPerMember!,
      startAt: new Date(startAt!).toISOString(),
      endAt: new Date(endAt!).toISOString(),
      returnByApplication,
    };
    if (
      existing &&
      existing.type === body.type &&
      existing.coin === coin &&
      existing.payCoin === payCoin &&
      DECIMAL_FIELDS.every((f) => compareDecimal(existing[f], body[f]) === 0) &&
      Date.parse(existing.startAt) === startAt &&
      Date.parse(existing.endAt) === endAt &&
      existing.returnByApplication === returnByApplication
    )
      return refuse({ projectId: formKey, error: keyError("ops.errors.no_change"), values });
    const refused = await send(ops, { projectId: formKey, values }, () => ops.call(endpoints.adminSubscriptionProject, { body }));
    if (refused) return refuse(refused);
    return redirectWithToast(
      request,
      SUBSCRIPTIONS_PAGE,
      { type: "success", key: adding ? "ops.subscriptions.added" : "ops.subscriptions.saved", values: { project: body.projectId } },
      { headers: OPS_HEADERS },
    );
  });
}
