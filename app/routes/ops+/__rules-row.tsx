import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { formErrorText } from "~/lib/forms/form-error";
import { useTranslation } from "~/lib/i18n";
import * as s from "~/styles/ops.css";
import * as m from "./markets.css";
import * as o from "./ops-admin.css";
import * as q from "./queues.css";

/** What a rules row's refused post brings back: the row it is about, its error or its fields' errors, and what was typed. */
export interface RowRefusal<F extends string> {
  error?: string;
  fields?: Partial<Record<F, string>>;
  values?: Partial<Record<F, string>>;
}

/**
 * The head of a console page of configuration rows (the margin pools, the loan products): its
 * title, what the rows mean, whether the operator may only read, and a refused post's error.
 */
export function RulesPageHead({
  titleId,
  title,
  notice,
  mayChange,
  refusal,
  refusedRow,
}: {
  titleId: string;
  title: string;
  notice: string;
  mayChange: boolean;
  refusal?: { error?: string };
  refusedRow: string | null | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      <h1 id={titleId} className={s.title}>
        {title}
      </h1>
      <p className={`${s.muted} ${o.note}`}>{notice}</p>
      {mayChange ? null : <p className={`${s.muted} ${o.note}`}>{t("ops.markets.read_only")}</p>}
      {refusal?.error ? (
        <div className={o.alert} role="alert" data-testid="ops-rules-refusal">
          <p className={o.alertLine}>
            {refusedRow ? <strong>{refusedRow}: </strong> : null}
            {formErrorText(refusal.error, t)}
          </p>
        </div>
      ) : null}
    </>
  );
}

/**
 * One row's rules form, folded: a decimal input per field (as typed in the operator's language,
 * the row's value by default, a refused post's text kept), anything else the row takes, and its
 * save button, named for the row. Works without JavaScript (a plain post).
 */
export function RulesRowForm<F extends string>({
  keyName,
  keyValue,
  fields,
  label,
  shown,
  refusal,
  mark,
  decimalsOf,
  example,
  formLabel,
  saveLabel,
  children,
}: {
  /** The hidden field naming the row (`coin`, `productId`) and its value. */
  keyName: string;
  keyValue: string;
  fields: readonly F[];
  label: (field: F) => string;
  shown: Record<F, string>;
  refusal: RowRefusal<F> | undefined;
  mark: string;
  decimalsOf: (field: F) => number;
  example: string;
  formLabel: string;
  saveLabel: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const idOf = (field: F) => `ops-${keyValue}-${field}`;
  return (
    <details className={q.fold} open={refusal ? true : undefined}>
      <summary className={m.foldSummary}>{t("ops.markets.rules_open")}</summary>
      <Form method="post" className={m.rulesForm} aria-label={formLabel}>
        <input type="hidden" name={keyName} value={keyValue} />
        {fields.map((field) => {
          const id = idOf(field);
          const error = refusal?.fields?.[field];
          return (
            <div className={m.field} key={field}>
              <label htmlFor={id} className={q.label}>
                {label(field)}
              </label>
              <input
                id={id}
                name={field}
                type="text"
                inputMode="decimal"
                autoComplete="off"
                spellCheck={false}
                required
                defaultValue={refusal?.values?.[field] ?? shown[field].replace(".", mark)}
                className={`${s.smallInput} ${m.input}`}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />
              {error ? (
                <p id={`${id}-error`} className={m.error}>
                  {formErrorText(error, t, { field: label(field), max: decimalsOf(field), mark, example })}
                </p>
              ) : null}
            </div>
          );
        })}
        {children}
        <button
          type="submit"
          className={q.approve}
          aria-label={saveLabel}
          disabled={navigation.state === "submitting" && navigation.formData?.get(keyName) === keyValue}
        >
          {t("ops.markets.save")}
        </button>
      </Form>
    </details>
  );
}
