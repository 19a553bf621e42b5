import type { DecimalMark } from "#protocol/decimal-input";
import { readDecimalInput, toInputText } from "#protocol/decimal-input";
import { formErrorText } from "~/lib/forms/form-error";
import { getInputProps } from "~/lib/forms/form-props";
import type { ExchangeField } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import * as s from "./exchange.css";

/**
 * A number field of a trading form. What is typed or pasted stays exactly as it is (decision
 * 039): the field is read as the server reads it, and while the text is not a number the server
 * would take, the server's message says why under it (the check's errors, once shown, come first).
 */
export function NumberField({
  field,
  label,
  unit,
  scale,
  mark,
  defaultValue,
}: {
  field: ExchangeField;
  label: string;
  unit: string;
  scale: number;
  mark: DecimalMark;
  defaultValue?: string | null;
}) {
  const { t } = useTranslation();
  const props = getInputProps(field, { type: "text" });
  const errorId = `${field.id}-error`;
  const typed = field.value ? readDecimalInput(field.value, { scale, mark }) : null;
  const unreadable = typed && !typed.ok && typed.error !== "required" ? [`validation.number.${typed.error}`] : [];
  const errors = field.errors?.length ? field.errors : unreadable;
  return (
    <div className={s.numberField}>
      <label htmlFor={field.id} className={s.numberLabel}>
        {label}
      </label>
      <div className={s.numberBox}>
        <input
          {...props}
          defaultValue={props.defaultValue ?? (defaultValue ? toInputText(defaultValue, mark) : undefined)}
          className={s.numberInput}
          inputMode={scale > 0 ? "decimal" : "numeric"}
          autoComplete="off"
          aria-invalid={errors.length ? true : undefined}
          aria-describedby={errors.length ? errorId : undefined}
        />
        <span className={s.unit} aria-hidden="true">
          {unit}
        </span>
      </div>
      {errors.length ? (
        <p id={errorId} className={s.fieldError} data-testid={`${field.id}-error`}>
          {errors.map((e) => formErrorText(e, t, { field: label, max: scale, mark, example: toInputText(scale > 0 ? "12.5" : "10", mark) })).join(" ")}
        </p>
      ) : null}
    </div>
  );
}
