import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";
import type { LanguageCode } from "#protocol/languages";
import { sendCodeSchema } from "~/lib/forms/auth";
import { endpoints } from "#protocol/endpoints";
import { callEndpoint } from "./api.server";
import { loadAreaCodes, phoneFitsArea } from "./area-codes.server";
import { getMember } from "./auth.server";
import { orUnavailable } from "./errors.server";
import { detectLanguage } from "./i18n.server";
import { sendCode } from "./register.server";

/** What the login and register pages share: members go to their account; the e-mail/phone tab; area codes. */
export async function authPageContext(request: Request) {
  if (await getMember(request)) throw redirect("/account/center/info");
  const url = new URL(request.url);
  const lang = await detectLanguage(request);
  return {
    url,
    accountType: url.searchParams.get("type") === "phone" ? ("phone" as const) : ("email" as const),
    areas: await orUnavailable(request, loadAreaCodes(lang)),
  };
}

/** The demo login of a demo install (simulated markets), or null; the page offers it when there is one. */
export async function loadDemoAccount(request: Request) {
  const lang = await detectLanguage(request);
  return callEndpoint(endpoints.demoAccount, {}, { lang }).catch(() => null);
}

/** A phone that does not fit its area code (spec §5), as a field error; null when fine or not a phone. */
export function phoneFieldError(areas: Awaited<ReturnType<typeof loadAreaCodes>>, value: { accountType: string; areaCode?: string; phone?: string }) {
  return value.accountType === "phone" && value.areaCode && value.phone && !phoneFitsArea(areas, value.areaCode, value.phone) ? { phone: ["validation.phone"] } : null;
}

/**
 * The "Send code" intent of the register and forgotten-password pages: checks the account fields,
 * asks the engine for a code of `purpose`, and answers the form's reply. `hide`: fields never sent
 * back (passwords, the code); `keepOnSuccess` is hidden once the code went out.
 */
export async function sendCodeReply(
  request: Request,
  formData: FormData,
  options: { lang: LanguageCode; areas: Awaited<ReturnType<typeof loadAreaCodes>>; purpose: "register" | "reset"; hide: string[]; hideOnSuccess: string[] },
) {
  const refused = (result: SubmissionResult<string[]>) => data({ result, codeSentAt: null, resendAfter: null }, { status: 400 });
  const submission = parseWithZod(formData, { schema: sendCodeSchema });
  if (submission.status !== "success") return refused(submission.reply({ hideFields: options.hide }));
  const invalidPhone = phoneFieldError(options.areas, submission.value);
  if (invalidPhone) return refused(submission.reply({ hideFields: options.hide, fieldErrors: invalidPhone }));
  const sent = await sendCode(request, options.lang, { ...submission.value, purpose: options.purpose });
  if (!sent.ok) return refused(submission.reply({ hideFields: options.hide, formErrors: [sent.message ?? "errors.unknown"] }));
  const sentTo = submission.value.email ?? `+${submission.value.areaCode} ${submission.value.phone}`;
  return data({ result: submission.reply({ hideFields: options.hideOnSuccess }), codeSentAt: Date.now() as number | null, resendAfter: sent.value.resendAfterSeconds as number | null, sentTo });
}
