import type { ReactNode } from "react";
import * as f from "~/components/forms.css";
import { useTranslation } from "~/lib/i18n";

/** What a filter's control carries so its label and error are read with it. */
export interface FilterControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/**
 * One field of a console list's filter (a GET form): its label, its control (`children`, given
 * the id and the aria attributes), and its error key translated under it, tied to the control.
 */
export function FilterField({
  id,
  label,
  error,
  hintId,
  className,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined;
  /** A hint shown elsewhere that the control is described by too. */
  hintId?: string;
  className?: string;
  children: (control: FilterControlProps) => ReactNode;
}) {
  const { t } = useTranslation();
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, hintId ?? null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className ? `${f.field} ${className}` : f.field}>
      <label htmlFor={id} className={f.label}>
        {label}
      </label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {error ? (
        <p id={errorId} className={f.errors}>
          {t(error)}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Said once above a filtered list that shows nothing because of its filter: the page position
 * that is none, or a field whose own error says which (a screen reader hears this at once).
 */
export function FilterAlert({ errors }: { errors: Record<string, string> }) {
  const { t } = useTranslation();
  const fields = Object.keys(errors);
  if (fields.length === 0) return null;
  return (
    <p className={f.errors} role="alert">
      {errors.before && fields.length === 1 ? t(errors.before) : t("ops.audit.bad_filter")}
    </p>
  );
}
