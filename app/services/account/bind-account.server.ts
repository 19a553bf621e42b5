import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { bindEmailSchema, bindPhoneSchema } from "~/lib/forms/bind";
import { loadAreaCodes, phoneFitsArea } from "./area-codes.server";
import { codeTargetOf, describeTarget } from "../engine/areas/codes.server";
import type { MemberEngine } from "../engine/client.server";
import { redirectWithToast } from "../platform/toast.server";
import { engineRefused } from "../platform/form-reply.server";

const NOTHING_SENT = { sentAt: null, sentTo: null, resendAfter: null };

/**
 * Binds an e-mail or a phone: `send-code` sends a code to the new address (purpose `bind`), the
 * save intent checks it and binds.
 */
export async function bindAccountAction(engine: MemberEngine, accountType: "email" | "phone") {
  const { request } = engine;
  const formData = await request.formData();
  const schema = accountType === "email" ? bindEmailSchema : bindPhoneSchema;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success")
    return data({ result: submission.reply({ hideFields: ["code"] }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
  const value = submission.value as { email?: string; areaCode?: string; phone?: string; code?: string };
  if (accountType === "phone" && !phoneFitsArea(await engine.guard(() => loadAreaCodes(engine.lang)), value.areaCode!, value.phone!)) {
    return data(
      { result: submission.reply({ hideFields: ["code"], fieldErrors: { phone: ["validation.phone"] } }), sentAt: null, sentTo: null, resendAfter: null },
      { status: 400 },
    );
  }
  const target = codeTargetOf({ accountType, ...value });
  if (formData.get("intent") === "send-code") {
    const sent = await engine.attempt(() => engine.security.sendBindCode(target));
    if (!sent.ok) return engineRefused(submission, sent, { hideFields: ["code"], extra: NOTHING_SENT });
    return data({
      result: submission.reply({ hideFields: ["code"] }),
      sentAt: Date.now(),
      sentTo: describeTarget(target),
      resendAfter: sent.value.resendAfterSeconds,
    });
  }
  if (!value.code)
    return data(
      { result: submission.reply({ hideFields: ["code"], fieldErrors: { code: ["validation.code"] } }), sentAt: null, sentTo: null, resendAfter: null },
      { status: 400 },
    );
  const code = value.code;
  const bound = await engine.attempt(() => engine.security.bindAccount({ ...target, code }));
  if (!bound.ok) return engineRefused(submission, bound, { hideFields: ["code"], extra: NOTHING_SENT });
  return redirectWithToast(request, "/account/center/security", {
    type: "success",
    key: accountType === "email" ? "account.bind.email_done" : "account.bind.phone_done",
  });
}
