import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import { callEndpoint } from "~/services/api.server";
import { clientOf, getMember, logOutHeaders } from "~/services/auth.server";
import { detectLanguage } from "~/services/i18n.server";
import { toastHeader } from "~/services/toast.server";

/** Logout (a POST from the member menu): the engine revokes the session, the cookie forgets it. */
export async function action({ request }: ActionFunctionArgs) {
  const member = await getMember(request);
  if (member) {
    const lang = await detectLanguage(request);
    // Already revoked or expired is fine: the member is logged out either way.
    await callEndpoint(endpoints.logout, {}, { lang, token: member.auth.accessToken, client: clientOf(request) }).catch(() => null);
  }
  const headers = await logOutHeaders(request);
  headers.append("set-cookie", await toastHeader(request, { type: "info", key: "auth.logged_out" }));
  // Only the register page may be asked for (the demo member's "register your own account").
  const next = new URL(request.url).searchParams.get("next") === "register" ? "/user/register" : "/home/index";
  return redirect(next, { headers });
}

export const loader = () => redirect("/home/index");
