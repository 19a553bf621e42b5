import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { ErrorList, FormErrors } from "~/components/forms";
import { opsDecisionCheck } from "~/lib/forms/checks/ops";
import { getFormProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import * as q from "./queues.css";

/** What a queue's action answers when it refused a decision (`__decision.server.ts`). */
export interface DecisionReply {
  id: string;
  decision: string;
  result: SubmissionResult<string[]>;
}

/** The longest reason a member reads (the schema's limit). */
export const REASON_MAX = 300;

/** Every error of a refused decision, the form's and its fields', for a row no longer on the page. */
export function replyErrors(reply: DecisionReply | undefined): string[] {
  const all = Object.values(reply?.result.error ?? {}).flatMap((errors) => errors ?? []);
  return [...new Set(all)];
}

/** A conform field as the reason textarea needs it. */
interface ReasonFieldMeta {
  id: string;
  formId: string;
  errorId: string;
  initialValue?: string | undefined;
  errors?: string[] | undefined;
}

/**
 * The reason an operator states (a rejection's, a member change's): a required textarea of at
 * most 300 characters (`minLength` where the schema asks for more than one), its hint and errors.
 */
export function ReasonField({ field, label, hint, minLength }: { field: ReasonFieldMeta; label: string; hint: string; minLength?: number }) {
  const hintId = `${field.id}-hint`;
  const invalid = Boolean(field.errors?.length);
  return (
    <>
      <label htmlFor={field.id} className={q.label}>
        {label}
      </label>
      <textarea
        id={field.id}
        name="reason"
        form={field.formId}
        required
        minLength={minLength}
        maxLength={REASON_MAX}
        rows={2}
        defaultValue={field.initialValue}
        className={q.textarea}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${field.errorId} ${hintId}` : hintId}
      />
      <p id={hintId} className={q.hint}>
        {hint}
      </p>
      <ErrorList id={field.errorId} errors={field.errors} />
    </>
  );
}

interface DecisionFormsProps {
  /** The item's id as the action takes it (a member's uid, a withdrawal's id). */
  id: string;
  /** A prefix of the forms' element ids (`kyc`, `withdrawal`). */
  scope: string;
  /** The action's refusal, if it is this item's. */
  reply: DecisionReply | undefined;
  /** The buttons' accessible names (they start with their visible words). */
  approveLabel: string;
  rejectLabel: string;
  /** In a table row: the reject form folds under a "Reject…" summary until opened. */
  folded?: boolean;
}

/**
 * An item's decision: an Approve button (a form of its own) and a Reject form with the reason
 * the member reads (required, at most 300 characters). Plain posts: without JavaScript the page
 * comes back with the toast or with the form's error; with it, the reason is checked before the
 * post.
 */
export function DecisionForms({ id, scope, reply, approveLabel, rejectLabel, folded = false }: DecisionFormsProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const mine = reply?.id === id ? reply : undefined;
  const [approveForm] = useExchangeForm(opsDecisionCheck, { id: `${scope}-${id}-approve`, lastResult: mine?.decision === "approve" ? mine.result : undefined });
  const [rejectForm, fields] = useExchangeForm(opsDecisionCheck, {
    id: `${scope}-${id}-reject`,
    lastResult: mine?.decision === "reject" ? mine.result : undefined,
  });
  const sending = (decision: string) =>
    navigation.state === "submitting" && navigation.formData?.get("id") === id && navigation.formData?.get("decision") === decision;
  const reason = fields.reason;
  const rejectBody = (
    <Form method="post" {...getFormProps(rejectForm)} className={q.rejectForm}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="decision" value="reject" />
      <FormErrors id={rejectForm.errorId} errors={rejectForm.errors} />
      <ReasonField field={reason} label={t("ops.decision.reason")} hint={t("ops.decision.reason_hint", { max: REASON_MAX })} />
      <div className={q.buttons}>
        <button type="submit" className={q.reject} aria-label={rejectLabel} disabled={sending("reject")} aria-busy={sending("reject") || undefined}>
          {t("ops.decision.reject")}
        </button>
      </div>
    </Form>
  );
  // A refused rejection opens its fold again, with the reason and the error in sight.
  const openFold = mine?.decision === "reject";
  return (
    <div className={q.decision}>
      <Form method="post" {...getFormProps(approveForm)}>
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="decision" value="approve" />
        <FormErrors id={approveForm.errorId} errors={approveForm.errors} />
        <button type="submit" className={q.approve} aria-label={approveLabel} disabled={sending("approve")} aria-busy={sending("approve") || undefined}>
          {t("ops.decision.approve")}
        </button>
      </Form>
      {folded ? (
        <details className={q.fold} open={openFold || undefined}>
          <summary className={q.foldSummary}>{t("ops.decision.reject_open")}</summary>
          {rejectBody}
        </details>
      ) : (
        rejectBody
      )}
    </div>
  );
}
