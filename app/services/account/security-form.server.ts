import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import * as z from "zod";
import type { MemberEngine } from "../engine/client.server";
import type { CodeWithdrawal } from "../engine/areas/codes.server";
import { redirectWithToast } from "../platform/toast.server";
import { engineRefused } from "../platform/form-reply.server";

const NOTHING_SENT = { sentAt: null, sentTo: null, resendAfter: null };

/**
 * The action of a security setting protected by a code sent to the member: intent `send-code`
 * sends it, any other intent validates the form and saves through `save`.
 */
export async function handleSecurityForm<S extends z.ZodType<Record<string, unknown>>, Saved>(
  engine: MemberEngine,
  options: {
    schema: S;
    hideFields: string[];
    save: (value: z.output<S>) => Promise<Saved>;
    /** Where to go and which toast to show; `key` may depend on what `save` returned. */
    done: { to: string; key: string | ((saved: Saved) => string) };
  },
) {
  const { request } = engine;
  const formData = await request.formData();
  const hideFields = options.hideFields;
  if (formData.get("intent") === "send-code") return replySendCode(engine, formData, { hideFields });
  const submission = parseWithZod(formData, { schema: options.schema });
  if (submission.status !== "success")
    return data({ result: submission.reply({ hideFields }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
  const saved = await engine.attempt(() => options.save(submission.value as z.output<S>));
  if (!saved.ok) return engineRefused(submission, saved, { hideFields, extra: NOTHING_SENT });
  const key = typeof options.done.key === "function" ? options.done.key(saved.value) : options.done.key;
  return redirectWithToast(request, options.done.to, { type: "success", key });
}

/**
 * The `send-code` intent of a code-protected form: sends a security code to the member (a
 * withdrawal's code with `withdrawal`) and answers the form as typed (without `hideFields` and
 * without errors for fields not filled in yet), with where the code went; `extra` is the rest of
 * the page's answer (e.g. its key). Asked again too soon, the engine's refusal says the seconds
 * left, and the answer carries them so the button counts them down.
 */
export async function replySendCode<Extra extends object = Record<never, never>>(
  engine: MemberEngine,
  formData: FormData,
  options: { hideFields: string[]; extra?: Extra; withdrawal?: CodeWithdrawal },
) {
  const { hideFields } = options;
  const extra = (options.extra ?? {}) as Extra;
  const typed = parseWithZod(formData, { schema: z.looseObject({}) });
  const info = await engine.member.info();
  const sent = await engine.attempt(() => engine.security.sendSecurityCode(info, options.withdrawal));
  if (!sent.ok) {
    const wait = sent.retryAfterSeconds ? { sentAt: Date.now() as number | null, resendAfter: sent.retryAfterSeconds as number | null } : {};
    return engineRefused(typed, sent, { hideFields, extra: { ...extra, ...NOTHING_SENT, ...wait } });
  }
  return data({
    ...extra,
    result: typed.reply({ hideFields }),
    sentAt: Date.now() as number | null,
    sentTo: sent.value.destination as string | null,
    resendAfter: sent.value.resendAfterSeconds as number | null,
  });
}
