import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";
import { sendCodeSchema } from "~/lib/forms/auth";
import { loadAreaCodes, phoneFitsArea } from "./area-codes.server";
import { codeTargetOf, describeTarget } from "../engine/areas/codes.server";
import type { Engine } from "../engine/client.server";
import { engineRefused } from "../platform/form-reply.server";

/** What the login and register pages share: members go to their account; the e-mail/phone tab; area codes. */
export async function authPageContext(engine: Engine) {
  if (engine.signedIn) throw redirect("/account/center/info");
  const url = new URL(engine.request.url);
  return {
    url,
    accountType: url.searchParams.get("type") === "phone" ? ("phone" as const) : ("email" as const),
    areas: await engine.guard(() => loadAreaCodes(engine.lang)),
  };
}

/** The demo login of a demo install (simulated markets), or null; the page offers it when there is one. */
export function loadDemoAccount(engine: Engine) {
  return engine.auth.demoAccount().catch(() => null);
}

/** A phone that does not fit its area code (spec §5), as a field error; null when fine or not a phone. */
export function phoneFieldError(areas: Awaited<ReturnType<typeof loadAreaCodes>>, value: { accountType: string; areaCode?: string; phone?: string }) {
  return value.accountType === "phone" && value.areaCode && value.phone && !phoneFitsArea(areas, value.areaCode, value.phone)
    ? { phone: ["validation.phone"] }
    : null;
}

/**
 * The "Send code" intent of the register and forgotten-password pages: checks the account fields,
 * asks the engine for a code of `purpose`, and answers the form's reply. `hide`: fields never sent
 * back (passwords, the code); `keepOnSuccess` is hidden once the code went out.
 */
export async function sendCodeReply(
  engine: Engine,
  formData: FormData,
  options: { areas: Awaited<ReturnType<typeof loadAreaCodes>>; purpose: "register" | "reset"; hide: string[]; hideOnSuccess: string[] },
) {
  const refused = (result: SubmissionResult<string[]>) => data({ result, codeSentAt: null, resendAfter: null }, { status: 400 });
  const submission = parseWithZod(formData, { schema: sendCodeSchema });
  if (submission.status !== "success") return refused(submission.reply({ hideFields: options.hide }));
  const invalidPhone = phoneFieldError(options.areas, submission.value);
  if (invalidPhone) return refused(submission.reply({ hideFields: options.hide, fieldErrors: invalidPhone }));
  const target = codeTargetOf(submission.value);
  const sent = await engine.attempt(() => engine.auth.sendCode(target, options.purpose));
  if (!sent.ok) return engineRefused(submission, sent, { hideFields: options.hide, extra: { codeSentAt: null, resendAfter: null } });
  const sentTo = describeTarget(target);
  return data({
    result: submission.reply({ hideFields: options.hideOnSuccess }),
    codeSentAt: Date.now() as number | null,
    resendAfter: sent.value.resendAfterSeconds as number | null,
    sentTo,
  });
}
