import { useNavigation } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { useTranslation } from "~/lib/i18n";
import { formErrorText } from "~/lib/forms/form-error";
import * as s from "./forms.css";

/** An encoded form error (`~/lib/forms/form-error`): a key is translated, an engine message shown as is. */
function useErrorText() {
  const { t } = useTranslation();
  return (error: string) => formErrorText(error, t);
}

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const text = useErrorText();
  if (!errors?.length) return null;
  return (
    <ul id={id} className={s.errors}>
      {errors.map((error) => (
        <li key={error}>{text(error)}</li>
      ))}
    </ul>
  );
}

/**
 * Form-level errors (e.g. the engine's refusal), announced to screen readers. The alert is a box
 * around the list: `role="alert"` on the <ul> itself would take its list role away (its items
 * would no longer be in a list, which axe rates serious).
 */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  const text = useErrorText();
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert">
      <ul className={s.formErrors}>
        {errors.map((error) => (
          <li key={error}>{text(error)}</li>
        ))}
      </ul>
    </div>
  );
}

interface FieldProps {
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string };
  errors?: string[];
  hint?: ReactNode;
  /** Something beside the input (a send-code button). */
  addon?: ReactNode;
}

/** A labelled input wired to its errors: `aria-invalid` and `aria-describedby` by construction. */
export function Field({ label, inputProps, errors, hint, addon }: FieldProps) {
  const errorId = errors?.length ? `${inputProps.id}-error` : undefined;
  const hintId = hint ? `${inputProps.id}-hint` : undefined;
  const input = (
    <input
      {...inputProps}
      className={s.input}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={[errorId, hintId].filter(Boolean).join(" ") || undefined}
    />
  );
  return (
    <div className={s.field}>
      <label htmlFor={inputProps.id} className={s.label}>
        {label}
      </label>
      {addon ? (
        <div className={s.row}>
          {input}
          {addon}
        </div>
      ) : (
        input
      )}
      {hint ? (
        <p id={hintId} className={s.hint}>
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function SelectField({
  label,
  selectProps,
  errors,
  children,
}: {
  label: ReactNode;
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { id: string };
  errors?: string[];
  children: ReactNode;
}) {
  const errorId = errors?.length ? `${selectProps.id}-error` : undefined;
  return (
    <div className={s.field}>
      <label htmlFor={selectProps.id} className={s.label}>
        {label}
      </label>
      <select {...selectProps} className={s.input} aria-invalid={errorId ? true : undefined} aria-describedby={errorId}>
        {children}
      </select>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** The main submit button; shows that the form is on its way (with JavaScript). */
export function SubmitButton({ children, name, value }: { children: ReactNode; name?: string; value?: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && (!name || navigation.formData?.get(name) === value);
  return (
    <button type="submit" className={s.primary} name={name} value={value} disabled={pending} aria-busy={pending || undefined}>
      {children}
    </button>
  );
}

export const formStyles = s;
