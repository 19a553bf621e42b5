import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import { keyError } from "~/lib/forms/form-error";
import { EngineRefusal } from "~/services/engine/api.server";
import { OPS_HEADERS, opsRefusalError, withOperator } from "~/services/ops/ops-engine.server";
import { opsMemberChangeSchema, parseWithZod } from "~/services/platform/form-schemas.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { MEMBERS_PAGE } from "./__member-states";

/*
 * The members pages' loaders and action (`members.tsx`, `members.$uid.tsx`), apart from the route
 * modules so what reads the forms stays on the server (decision 037).
 */

const UID = /^\d{8}$/;
/** The longest search the engine takes. */
const SEARCH_MAX = 100;

/** The search (or, without one, the newest members); a search too long or with control characters is refused here with its message. */
export function loadMembers(args: LoaderFunctionArgs) {
  return withOperator(args, "members.read", async ({ ops, request }) => {
    const q = (new URL(request.url).searchParams.get("q") ?? "").trim();
    const error = q.length > SEARCH_MAX ? "ops.errors.search_long" : /\p{Cc}/u.test(q) ? "ops.audit.bad_text" : null;
    const members = error ? [] : await ops.call(endpoints.opsMembers, { query: q ? { q } : {} });
    return data({ q: q.slice(0, SEARCH_MAX * 2), error, members }, { headers: OPS_HEADERS });
  });
}

/** A member's page and which changes the operator's role allows; an unknown uid is a 404 page. */
export function loadMember(args: LoaderFunctionArgs) {
  return withOperator(args, "members.read", async ({ ops }) => {
    const uid = args.params.uid ?? "";
    if (!UID.test(uid)) throw data(null, { status: 404, headers: OPS_HEADERS });
    try {
      const member = await ops.call(endpoints.opsMember, { params: { uid } });
      return data({ member, mayFreeze: ops.may("members.freeze"), mayReset: ops.may("members.reset_2fa") }, { headers: OPS_HEADERS });
    } catch (error) {
      if (error instanceof EngineRefusal && error.outcome.kind === "error" && error.outcome.code === 404)
        throw data(null, { status: 404, headers: OPS_HEADERS });
      throw error;
    }
  });
}

/**
 * Freezes, unfreezes or resets the authenticator of the page's member, with the operator's
 * reason: one engine call. Done: the page again with a toast. Refused (the form, the role,
 * another operator who did it first): the page with the form's error and nothing changed.
 */
export function memberAction(args: ActionFunctionArgs) {
  return withOperator(args, "members.read", async ({ ops, request }) => {
    const uid = args.params.uid ?? "";
    const back = `${MEMBERS_PAGE}/${uid}`;
    const formData = await request.formData().catch(() => new FormData());
    const submission = parseWithZod(formData, { schema: opsMemberChangeSchema });
    const intent = String(formData.get("intent") ?? "").slice(0, 20);
    const refuse = (formErrors: string[], status: number) => data({ intent, result: submission.reply({ formErrors }) }, { status, headers: OPS_HEADERS });
    if (!UID.test(uid)) return refuse([keyError("ops.errors.item")], 404);
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400, headers: OPS_HEADERS });
    const { reason } = submission.value;
    try {
      if (submission.value.intent === "reset_2fa") await ops.call(endpoints.opsMemberResetGoogle, { body: { uid, reason } });
      else await ops.call(endpoints.opsMemberFreeze, { body: { uid, frozen: submission.value.intent === "freeze", reason } });
    } catch (error) {
      if (!(error instanceof EngineRefusal)) throw error;
      const code = error.outcome.kind === "error" ? error.outcome.code : 401;
      const message = code === 404 ? keyError("ops.errors.item") : code === 409 ? keyError("ops.members.done_already") : opsRefusalError(error);
      return refuse([message], code >= 400 && code < 500 ? code : 502);
    }
    return redirectWithToast(request, back, { type: "success", key: `ops.members.done_${submission.value.intent}`, values: { uid } }, { headers: OPS_HEADERS });
  });
}
