import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import * as z from "zod";
import { endpoints } from "#protocol/endpoints";
import { callAsMember, requireMember, type MemberContext } from "./auth.server";
import { attempt } from "./register.server";
import { sendSecurityCode } from "./security-code.server";
import { redirectWithToast } from "./toast.server";

/**
 * The action of a security setting protected by a code sent to the member: intent `send-code`
 * sends it, any other intent validates the form and saves through `save`.
 */
export async function handleSecurityForm<S extends z.ZodType<Record<string, unknown>>>(
  request: Request,
  options: {
    schema: S;
    hideFields: string[];
    save: (member: MemberContext, value: z.output<S>) => Promise<unknown>;
    /** Where to go and which toast to show; `key` may depend on what `save` returned. */
    done: { to: string; key: string | ((saved: unknown) => string) };
  },
) {
  const member = await requireMember(request);
  const formData = await request.formData();
  const hideFields = options.hideFields;
  if (formData.get("intent") === "send-code") {
    // Keep what was typed, without errors for the fields not filled in yet.
    const typed = parseWithZod(formData, { schema: z.looseObject({}) });
    const info = await callAsMember(request, member, endpoints.memberInfo);
    const sent = await sendSecurityCode(request, member, info);
    if (!sent.ok) return data({ result: typed.reply({ hideFields, formErrors: [sent.message ?? "errors.unknown"] }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
    return data({ result: typed.reply({ hideFields }), sentAt: Date.now(), sentTo: sent.destination, resendAfter: sent.value.resendAfterSeconds });
  }
  const submission = parseWithZod(formData, { schema: options.schema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
  const saved = await attempt(() => options.save(member, submission.value as z.output<S>));
  if (!saved.ok) return data({ result: submission.reply({ hideFields, formErrors: [saved.message ?? "errors.unknown"] }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
  const key = typeof options.done.key === "function" ? options.done.key(saved.value) : options.done.key;
  return redirectWithToast(request, options.done.to, { type: "success", key });
}
