import { redirect } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import { callEndpoint } from "./api.server";
import { loadAreaCodes } from "./area-codes.server";
import { getMember } from "./auth.server";
import { orUnavailable } from "./errors.server";
import { detectLanguage } from "./i18n.server";

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
