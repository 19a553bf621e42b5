import { data } from "@remix-run/node";
import { keyError } from "~/lib/forms/form-error";
import { EngineRefusal } from "~/services/engine/api.server";
import { OPS_HEADERS, opsRefusalError } from "~/services/ops/ops-engine.server";
import { opsDecisionSchema, parseWithZod } from "~/services/platform/form-schemas.server";
import { redirectWithToast } from "~/services/platform/toast.server";

/** A checked decision on a queue item. */
export interface Decision {
  id: string;
  decision: "approve" | "reject";
  /** Only with a rejection: the reason its member reads. */
  reason?: string;
}

interface DecideOptions {
  /** The ids this queue's engine call takes (a uid, a withdrawal id): another is refused before the engine is asked. */
  idPattern: RegExp;
  /** Where the page is: the answer after a decision goes back there. */
  back: string;
  /** The one engine call of the decision. */
  send(decision: Decision): Promise<unknown>;
  /** The success toast's text key and its values. */
  done(decision: Decision): { key: string; values?: Record<string, string> };
}

/**
 * The action of a queue's decision forms (approve, or reject with a reason): the form checked
 * with its schema, then one engine call. Decided: back to the page with a toast. Refused (the
 * form, a forged id, the role, another operator who decided first): the page again with the
 * form's error, the engine's status (4xx) and nothing changed. `id` and `decision` in the reply
 * say which row's form it answers.
 */
export async function decide(request: Request, options: DecideOptions) {
  const formData = await request.formData().catch(() => new FormData());
  const submission = parseWithZod(formData, { schema: opsDecisionSchema });
  const posted = { id: String(formData.get("id") ?? "").slice(0, 40), decision: formData.get("decision") === "reject" ? "reject" : "approve" };
  // The id and the decision are hidden fields: an error of theirs is the form's (a tampered or stale page).
  const refuse = (formErrors: string[], status: number) => {
    const result = submission.reply({ formErrors, hideFields: ["id"] });
    const { id: _id, decision: _decision, ...shown } = result.error ?? {};
    return data({ ...posted, result: { ...result, error: shown } }, { status, headers: OPS_HEADERS });
  };

  if (submission.status !== "success") {
    const hidden = [...(submission.error?.id ?? []), ...(submission.error?.decision ?? []), ...(submission.error?.[""] ?? [])];
    if (hidden.length > 0) return refuse([...new Set(hidden)], 400);
    return data({ ...posted, result: submission.reply() }, { status: 400, headers: OPS_HEADERS });
  }
  const { id, decision, reason } = submission.value;
  if (!options.idPattern.test(id)) return refuse([keyError("ops.errors.item")], 400);
  const checked: Decision = decision === "reject" ? { id, decision, reason: reason! } : { id, decision };
  try {
    await options.send(checked);
  } catch (error) {
    if (!(error instanceof EngineRefusal)) throw error;
    const code = error.outcome.kind === "error" ? error.outcome.code : 401;
    // An id the engine does not know (the member, the withdrawal) is an item no longer in the list.
    const message = code === 404 ? keyError("ops.errors.item") : opsRefusalError(error);
    return refuse([message], code >= 400 && code < 500 ? code : 502);
  }
  const { key, values } = options.done(checked);
  return redirectWithToast(request, options.back, { type: "success", key, ...(values ? { values } : {}) }, { headers: OPS_HEADERS });
}
