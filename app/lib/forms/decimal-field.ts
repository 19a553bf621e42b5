import * as z from "zod";
import { readDecimalInput, type DecimalInputRules } from "#protocol/decimal-input";

/**
 * A money form's number field (decision 014): the typed text, read strictly in the member's
 * language, becomes the canonical decimal it denotes, or the field is refused with
 * `validation.number.<reason>` (rendered with the field's label, its decimals and an example).
 * An empty field is `undefined`: whether it is needed is the form's rule.
 */
export function decimalField(rules: DecimalInputRules) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const read = readDecimalInput(raw, rules);
      if (read.ok) return read.value;
      if (read.error === "required") return undefined;
      ctx.addIssue({ code: "custom", message: `validation.number.${read.error}` });
      return z.NEVER;
    });
}
