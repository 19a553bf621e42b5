import { parseWithZod } from "@conform-to/zod/v4";
import * as z from "zod";

const anything = z.looseObject({});

/**
 * Client-side check of a form that also has a "send code" button: sending a code checks nothing
 * here (the server checks the address), saving checks the whole schema.
 */
export function validateUnlessSendingCode<S extends z.ZodType>(formData: FormData, schema: S) {
  return parseWithZod(formData, { schema: (formData.get("intent") === "send-code" ? anything : schema) as S });
}
