import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import { OPERATOR_ROLES, type OperatorRole } from "#protocol/operators";
import { keyError } from "~/lib/forms/form-error";
import { opsAddOperatorSchema } from "~/lib/forms/ops";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import { redirectWithToast } from "~/services/platform/toast.server";

/*
 * The operators page's loader and action (`operators.tsx`), apart from the route module so the
 * form's zod schema stays out of the browser's first load (decision 037: a `.server` module is an
 * empty module there).
 */

export const OPERATORS_PAGE = "/ops/operators";

/** The operators, each with whether the signed-in admin may change them (never themself: the engine refuses it too). */
export function loadOperators(args: LoaderFunctionArgs) {
  return withOperator(args, "operators.manage", async ({ ops }) => {
    const selfId = ops.self.operator.id;
    const operators = await ops.call(endpoints.opsOperators);
    return data(
      // The roles go with the page: the protocol's module (zod's schemas) stays out of the browser's load.
      { operators: operators.map((operator) => ({ ...operator, changeable: operator.id !== selfId })), roles: OPERATOR_ROLES },
      { headers: OPS_HEADERS },
    );
  });
}

/** A change of one operator's row, as its form posts it. */
type RowChange = { role: OperatorRole } | { disabled: boolean } | { resetTotp: true };

const ROW_INTENTS = ["role", "disable", "enable", "reset"] as const;
type RowIntent = (typeof ROW_INTENTS)[number];

/** The toast of a row's change done. */
const DONE_KEYS: Record<RowIntent, string> = {
  role: "ops.operators.role_changed",
  disable: "ops.operators.disabled_done",
  enable: "ops.operators.enabled_done",
  reset: "ops.operators.reset_done",
};

/** A row's form read: the operator's id and the change, or the key of what is wrong with it. */
function rowChangeOf(form: FormData): { ok: true; id: string; intent: RowIntent; change: RowChange } | { ok: false; id: string | null; error: string } {
  const rawId = form.get("id");
  const id = typeof rawId === "string" && /^\d{1,18}$/.test(rawId) ? rawId : null;
  const intent = ROW_INTENTS.find((one) => one === form.get("intent"));
  if (!intent) return { ok: false, id, error: keyError("ops.errors.invalid") };
  if (!id) return { ok: false, id, error: keyError("ops.errors.operator") };
  if (intent === "role") {
    const role = OPERATOR_ROLES.find((one) => one === form.get("role"));
    if (!role) return { ok: false, id, error: keyError("ops.errors.role") };
    // The role the row showed (a hidden field): the same role again would be an audit row that changed nothing.
    if (role === form.get("current")) return { ok: false, id, error: keyError("ops.errors.no_change") };
    return { ok: true, id, intent, change: { role } };
  }
  if (intent === "reset") return { ok: true, id, intent, change: { resetTotp: true } };
  return { ok: true, id, intent, change: { disabled: intent === "disable" } };
}

/**
 * Adds an operator (the "Add operator" form, `intent=add`) or changes one row (`intent` role,
 * disable, enable or reset, with the row's `id`). Done: back to the page with a toast. Refused (bad
 * input, or the engine: an e-mail taken, the admin's own row): the form's error, nothing changed.
 */
export function operatorsAction(args: ActionFunctionArgs) {
  return withOperator(args, "operators.manage", async ({ ops, request }) => {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return data({ row: { id: null, error: keyError("ops.errors.invalid") } }, { status: 400, headers: OPS_HEADERS });
    }
    if (form.get("intent") === "add") {
      const hideFields = ["password"];
      const submission = parseWithZod(form, { schema: opsAddOperatorSchema });
      if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400, headers: OPS_HEADERS });
      const added = await ops.attempt(() => ops.call(endpoints.opsOperatorAdd, { body: submission.value }));
      if (!added.ok) return data({ result: submission.reply({ hideFields, formErrors: [added.error] }) }, { status: 400, headers: OPS_HEADERS });
      return redirectWithToast(
        request,
        OPERATORS_PAGE,
        { type: "success", key: "ops.operators.added", values: { name: added.value.name } },
        { headers: OPS_HEADERS },
      );
    }
    const row = rowChangeOf(form);
    if (!row.ok) return data({ row: { id: row.id, error: row.error } }, { status: 400, headers: OPS_HEADERS });
    const changed = await ops.attempt(() => ops.call(endpoints.opsOperatorUpdate, { body: { id: row.id, ...row.change } }));
    if (!changed.ok) return data({ row: { id: row.id, error: changed.error } }, { status: 400, headers: OPS_HEADERS });
    return redirectWithToast(
      request,
      OPERATORS_PAGE,
      { type: "success", key: DONE_KEYS[row.intent], values: { name: changed.value.name } },
      { headers: OPS_HEADERS },
    );
  });
}
