import type { HTMLInputTypeAttribute } from "react";
import type { ExchangeField, ExchangeFormState } from "./use-exchange-form";

/**
 * The attributes of a form and its controls, as conform's `getFormProps`, `getInputProps` and
 * `getSelectProps` write them (same names, same output), for the fields of `useExchangeForm`.
 */

function describedBy(invalid: boolean, errorId: string, extra?: string): string | undefined {
  return invalid ? `${errorId} ${extra ?? ""}`.trim() : extra;
}

/** Drops the attributes left undefined, so the caller's own win when spread after. */
function defined<T extends Record<string, unknown>>(props: T): T {
  for (const key of Object.keys(props)) if (props[key] === undefined) delete props[key];
  return props;
}

export function getFormProps(form: ExchangeFormState) {
  return defined({
    id: form.id,
    onSubmit: form.onSubmit,
    noValidate: form.noValidate,
    "aria-describedby": describedBy(form.errors !== undefined, form.errorId),
  });
}

function controlProps(field: ExchangeField, ariaDescribedBy?: string) {
  const invalid = field.errors !== undefined;
  return {
    id: field.id,
    name: field.name,
    form: field.formId,
    required: field.required || undefined,
    "aria-invalid": invalid || undefined,
    "aria-describedby": describedBy(invalid, field.errorId, ariaDescribedBy),
  };
}

export interface InputPropsOptions {
  type: HTMLInputTypeAttribute;
  /** A checkbox's or radio's value (`on` when unset). */
  value?: string;
  ariaDescribedBy?: string;
}

export function getInputProps(field: ExchangeField, options: InputPropsOptions) {
  const props: ReturnType<typeof controlProps> & {
    type: HTMLInputTypeAttribute;
    minLength?: number;
    maxLength?: number;
    min?: string | number;
    max?: string | number;
    step?: string | number;
    pattern?: string;
    multiple?: boolean;
    value?: string;
    defaultChecked?: boolean;
    defaultValue?: string;
  } = {
    ...controlProps(field, options.ariaDescribedBy),
    type: options.type,
    minLength: field.minLength,
    maxLength: field.maxLength,
    min: field.min,
    max: field.max,
    step: field.step,
    pattern: field.pattern,
    multiple: field.multiple,
  };
  if (options.type === "checkbox" || options.type === "radio") {
    props.value = options.value ?? "on";
    props.defaultChecked = field.initialValue === props.value;
  } else if (field.initialValue !== undefined) {
    props.defaultValue = field.initialValue;
  }
  return defined(props);
}

export function getSelectProps(field: ExchangeField) {
  return defined({ ...controlProps(field), multiple: field.multiple, defaultValue: field.initialValue });
}
