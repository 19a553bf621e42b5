import { useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import * as z from "zod";

/** A `send-code` intent checks nothing in the browser (the server checks the address). */
export const ANY_FIELDS = "any-fields";
const anyFields = z.looseObject({});

export interface ExchangeFormOptions<S extends z.ZodType<unknown, Record<string, unknown>>> {
  id: string;
  /** The action's reply (`result`), shown until the member types again. */
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: DefaultValue<z.input<S>>;
  /** When a field is first checked in the browser; `onBlur` for the account forms. */
  shouldValidate?: "onSubmit" | "onBlur" | "onInput";
  /**
   * The schema a `send-code` intent is checked with in the browser (the account fields only), or
   * `ANY_FIELDS` to check nothing; unset: the form's schema.
   */
  sendCode?: z.ZodType | typeof ANY_FIELDS;
}

/**
 * Every form of the web tier: conform with the form's zod schema, checked in the browser on blur
 * (or submit) and again on each input once shown, the action's reply as the last result, and the
 * schema's constraints (`required`, `minLength`, `maxLength`, `pattern`, …) on the inputs that
 * `getInputProps` renders. Without JavaScript the form is `noValidate` (conform's default before
 * hydration), so the server's checks answer: the attributes never refuse what the schema accepts.
 */
export function useExchangeForm<S extends z.ZodType<unknown, Record<string, unknown>>>(schema: S, options: ExchangeFormOptions<S>) {
  const constraint = useMemo(() => getZodConstraint(schema), [schema]);
  const { sendCode } = options;
  return useForm<z.input<S>, z.output<S>>({
    id: options.id,
    lastResult: options.lastResult ?? undefined,
    defaultValue: options.defaultValue,
    constraint,
    shouldValidate: options.shouldValidate ?? "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => {
      const sendingCode = sendCode && formData.get("intent") === "send-code";
      const checked = sendingCode ? (sendCode === ANY_FIELDS ? anyFields : sendCode) : schema;
      return parseWithZod(formData, { schema: checked as S });
    },
  });
}
