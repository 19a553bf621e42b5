import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import { bindEmailSchema, bindPhoneSchema } from "~/lib/forms/bind";
import { loadAreaCodes, phoneFitsArea } from "./area-codes.server";
import { callAsMember, requireMember } from "./auth.server";
import { detectLanguage } from "./i18n.server";
import { attempt, sendCode } from "./register.server";
import { redirectWithToast } from "./toast.server";

/**
 * Binds an e-mail or a phone: `send-code` sends a code to the new address (purpose `bind`), the
 * save intent checks it and binds.
 */
export async function bindAccountAction(request: Request, accountType: "email" | "phone") {
  const member = await requireMember(request);
  const lang = await detectLanguage(request);
  const formData = await request.formData();
  const schema = accountType === "email" ? bindEmailSchema : bindPhoneSchema;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["code"] }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
  const value = submission.value as { email?: string; areaCode?: string; phone?: string; code?: string };
  if (accountType === "phone" && !phoneFitsArea(await loadAreaCodes(lang), value.areaCode!, value.phone!)) {
    return data({ result: submission.reply({ hideFields: ["code"], fieldErrors: { phone: ["validation.phone"] } }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
  }
  const account = { accountType, email: value.email, areaCode: value.areaCode, phone: value.phone };
  if (formData.get("intent") === "send-code") {
    const sent = await sendCode(request, lang, { ...account, purpose: "bind" }, member.auth.accessToken);
    if (!sent.ok) return data({ result: submission.reply({ hideFields: ["code"], formErrors: [sent.message ?? "errors.unknown"] }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
    const sentTo = value.email ?? `+${value.areaCode} ${value.phone}`;
    return data({ result: submission.reply({ hideFields: ["code"] }), sentAt: Date.now(), sentTo, resendAfter: sent.value.resendAfterSeconds });
  }
  if (!value.code) return data({ result: submission.reply({ hideFields: ["code"], fieldErrors: { code: ["validation.code"] } }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
  const bound = await attempt(() => callAsMember(request, member, endpoints.bindAccount, { body: { ...account, code: value.code! } }));
  if (!bound.ok) return data({ result: submission.reply({ hideFields: ["code"], formErrors: [bound.message ?? "errors.unknown"] }), sentAt: null, sentTo: null, resendAfter: null }, { status: 400 });
  return redirectWithToast(request, "/account/center/security", { type: "success", key: accountType === "email" ? "account.bind.email_done" : "account.bind.phone_done" });
}
