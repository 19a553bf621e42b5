import { parseWithZod } from "@conform-to/zod/v4";
import type { ZodType } from "zod";

/**
 * What a form's schema says of what the member typed: the errors by field name (`""`: the whole
 * form's), as the server's conform reply would carry them. Loaded with the form's schema on the
 * form's first use (decision 037), so zod and conform's parser are not in a page's first load.
 */
export function checkForm(formData: FormData, schema: ZodType | "unchecked"): Record<string, string[]> {
  if (schema === "unchecked") return {};
  const submission = parseWithZod(formData, { schema });
  if (submission.status === "success") return {};
  const errors: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(submission.error ?? {})) if (messages?.length) errors[name] = messages;
  return errors;
}
