import type { InputHTMLAttributes, ReactNode } from "react";
import { useTranslation } from "~/lib/i18n";
import { toInputText, type DecimalMark } from "#protocol/decimal-input";
import { formErrorText } from "~/lib/forms/form-error";
import { useHydrated } from "~/lib/use-hydrated";
import * as s from "~/styles/account-center.css";
import * as w from "~/styles/wallet.css";
import * as f from "./forms.css";

/**
 * A money amount typed in the member's language (decision 014), with a "Max" button once
 * JavaScript runs (without it the member types the amount the hint shows) and its errors told
 * with the field's label, its decimals and an example in the member's decimal mark.
 */
export function AmountField({
  label,
  inputProps,
  errors,
  hint,
  onMax,
  scale,
  mark,
}: {
  label: string;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string };
  errors?: string[];
  /** What the member may move, shown under the field. */
  hint: ReactNode;
  /** Fills the field with the most it may take (a "Max" button); absent: no such button. */
  onMax?: () => void;
  scale: number;
  mark: DecimalMark;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const errorId = errors?.length ? `${inputProps.id}-error` : undefined;
  const hintId = `${inputProps.id}-hint`;
  return (
    <div className={f.field}>
      <label htmlFor={inputProps.id} className={f.label}>
        {label}
      </label>
      <div className={w.amountRow}>
        <input
          {...inputProps}
          inputMode="decimal"
          autoComplete="off"
          className={f.input}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(" ")}
        />
        {hydrated && onMax ? (
          <button type="button" className={s.action} onClick={onMax}>
            {t("wallet.transfer.max")}
          </button>
        ) : null}
      </div>
      <p id={hintId} className={f.hint}>
        {hint}
      </p>
      {errorId ? (
        <ul id={errorId} className={f.errors}>
          {errors!.map((e) => (
            <li key={e}>{formErrorText(e, t, { field: label, max: scale, mark, example: toInputText("12.5", mark) })}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
