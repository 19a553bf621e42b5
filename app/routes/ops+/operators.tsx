import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/dom";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { Field, SelectField, SubmitButton } from "~/components/forms";
import * as f from "~/components/forms.css";
import { formatDateTime } from "~/lib/dates";
import { opsAddOperatorCheck } from "~/lib/forms/checks/ops";
import { formErrorText } from "~/lib/forms/form-error";
import { getFormProps, getInputProps, getSelectProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadOperators, operatorsAction } from "./__operators.server";
import * as o from "./ops-admin.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.operators.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** The console's operators (issue 29, decision 043): admins only (`operators.manage`). */
export function loader(args: LoaderFunctionArgs) {
  return loadOperators(args);
}

export function action(args: ActionFunctionArgs) {
  return operatorsAction(args);
}

export default function OperatorsPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { operators, roles } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const rowRefusal = actionData && "row" in actionData ? actionData.row : null;
  const refusedName = rowRefusal?.id ? operators.find((operator) => operator.id === rowRefusal.id)?.name : undefined;
  const roleName = (role: string) => t(`ops.roles.${role}`);
  return (
    <>
      <section className={s.card} aria-labelledby="ops-operators-title">
        <h1 id="ops-operators-title" className={s.title}>
          {t("ops.operators.title")}
        </h1>
        <p className={s.muted} style={{ marginBottom: 16 }}>
          {t("ops.operators.notice")}
        </p>
        <p id="ops-reset-note" className={`${s.muted} ${o.note}`}>
          {t("ops.operators.reset_note")}
        </p>
        {rowRefusal ? (
          <p className={o.alert} role="alert">
            {refusedName ? <strong>{refusedName}: </strong> : null}
            {formErrorText(rowRefusal.error, t)}
          </p>
        ) : null}
        <DataTable
          rows={operators}
          rowKey={(operator) => operator.id}
          name={{ labelledBy: "ops-operators-title" }}
          empty={t("ops.operators.empty")}
          testId="ops-operators"
          columns={[
            {
              key: "name",
              header: t("ops.operators.name"),
              cell: (operator) => (
                <>
                  <span className={o.strong}>{operator.name}</span>
                  {operator.changeable ? null : <span className={`${s.muted} ${o.you}`}> ({t("ops.operators.you")})</span>}
                </>
              ),
            },
            { key: "email", header: t("ops.operators.email"), cell: (operator) => operator.email },
            { key: "role", header: t("ops.operators.role"), cell: (operator) => roleName(operator.role) },
            {
              key: "totp",
              header: t("ops.operators.totp"),
              kind: "status",
              cell: (operator) => (operator.totpReady ? t("ops.operators.totp_ready") : <span className={s.muted}>{t("ops.operators.totp_first_login")}</span>),
            },
            {
              key: "status",
              header: t("ops.operators.status"),
              kind: "status",
              cell: (operator) => (operator.disabled ? <span className={o.disabled}>{t("ops.operators.disabled")}</span> : t("ops.operators.active")),
            },
            {
              key: "last-login",
              header: t("ops.operators.last_login"),
              kind: "time",
              cell: (operator) =>
                operator.lastLoginAt ? (
                  <time dateTime={operator.lastLoginAt}>{formatDateTime(operator.lastLoginAt, lang)}</time>
                ) : (
                  <span className={s.muted}>{t("ops.operators.never")}</span>
                ),
            },
            {
              key: "actions",
              header: t("ops.operators.actions"),
              cell: (operator) =>
                operator.changeable ? (
                  <div className={o.rowActions}>
                    <Form method="post" className={s.inline}>
                      <input type="hidden" name="id" value={operator.id} />
                      <input type="hidden" name="current" value={operator.role} />
                      <label htmlFor={`ops-role-${operator.id}`} className="visually-hidden">
                        {t("ops.operators.role_of", { name: operator.name })}
                      </label>
                      {/* Keyed by the role: a change reloads the row with the new one chosen. */}
                      <select key={operator.role} id={`ops-role-${operator.id}`} name="role" defaultValue={operator.role} className={s.smallInput}>
                        {roles.map((role) => (
                          <option key={role} value={role}>
                            {roleName(role)}
                          </option>
                        ))}
                      </select>
                      <button
                        type="submit"
                        name="intent"
                        value="role"
                        className={s.linkButton}
                        aria-label={t("ops.operators.change_role_named", { name: operator.name })}
                      >
                        {t("ops.operators.change_role")}
                      </button>
                    </Form>
                    <Form method="post" className={s.inline}>
                      <input type="hidden" name="id" value={operator.id} />
                      {operator.disabled ? (
                        <button
                          type="submit"
                          name="intent"
                          value="enable"
                          className={s.linkButton}
                          aria-label={t("ops.operators.enable_named", { name: operator.name })}
                        >
                          {t("ops.operators.enable")}
                        </button>
                      ) : (
                        <button
                          type="submit"
                          name="intent"
                          value="disable"
                          className={s.linkButton}
                          aria-label={t("ops.operators.disable_named", { name: operator.name })}
                        >
                          {t("ops.operators.disable")}
                        </button>
                      )}
                      <button
                        type="submit"
                        name="intent"
                        value="reset"
                        className={s.linkButton}
                        aria-label={t("ops.operators.reset_named", { name: operator.name })}
                        aria-describedby="ops-reset-note"
                      >
                        {t("ops.operators.reset")}
                      </button>
                    </Form>
                  </div>
                ) : (
                  <span className={s.muted}>{t("ops.operators.self_note")}</span>
                ),
            },
          ]}
        />
      </section>

      {/* Keyed by the list: a change done (an operator added, a row changed) starts the form afresh; a refusal keeps it as typed. */}
      <AddOperatorForm
        key={operators.map((op) => `${op.id}:${op.role}:${op.disabled}:${op.totpReady}`).join()}
        roles={roles}
        lastResult={actionData && "result" in actionData ? actionData.result : undefined}
      />
    </>
  );
}

/** The "Add operator" form: e-mail, name, role and an initial password; the authenticator comes at the first login. */
function AddOperatorForm({ roles, lastResult }: { roles: readonly string[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useExchangeForm(opsAddOperatorCheck, { id: "ops-add-operator", lastResult, shouldValidate: "onBlur" });
  return (
    <section className={`${s.card} ${o.addCard}`} aria-labelledby="ops-add-title">
      <h2 id="ops-add-title" className={s.title}>
        {t("ops.operators.add_title")}
      </h2>
      <Form method="post" {...getFormProps(form)}>
        {/* The engine's refusal (an e-mail taken), announced; paragraphs, so the alert role does not break a list's semantics. */}
        {form.errors?.length ? (
          <div id={form.errorId} className={f.formErrors} role="alert">
            {form.errors.map((error) => (
              <p key={error} className={o.alertLine}>
                {formErrorText(error, t)}
              </p>
            ))}
          </div>
        ) : null}
        <input type="hidden" name="intent" value="add" />
        <div className={o.addGrid}>
          <Field
            label={t("ops.operators.email")}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off", spellCheck: false }}
            errors={fields.email.errors}
          />
          <Field
            label={t("ops.operators.name")}
            inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }}
            errors={fields.name.errors}
          />
          <SelectField label={t("ops.operators.role")} selectProps={getSelectProps(fields.role)} errors={fields.role.errors}>
            <option value="">{t("ops.operators.choose_role")}</option>
            {roles.map((role) => (
              <option key={role} value={role}>
                {t(`ops.roles.${role}`)}
              </option>
            ))}
          </SelectField>
          <Field
            label={t("ops.operators.password")}
            hint={t("ops.operators.password_hint")}
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
            errors={fields.password.errors}
          />
        </div>
        <div className={o.submit}>
          <SubmitButton>{t("ops.operators.add_submit")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
