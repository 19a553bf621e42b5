import type { MemberInfo } from "#protocol/member";
import type { MemberContext } from "./auth.server";
import { detectLanguage } from "./i18n.server";
import { sendCode } from "./register.server";

/** Sends a security code to the member's own e-mail (else phone) before a sensitive change. */
export async function sendSecurityCode(request: Request, member: MemberContext, info: Pick<MemberInfo, "email" | "areaCode" | "phone">) {
  const lang = await detectLanguage(request);
  const target = info.email
    ? { accountType: "email" as const, email: info.email }
    : { accountType: "phone" as const, areaCode: info.areaCode ?? "", phone: info.phone ?? "" };
  const result = await sendCode(request, lang, { ...target, purpose: "security" }, member.auth.accessToken);
  return { ...result, destination: info.email ?? `+${info.areaCode} ${info.phone}` };
}
