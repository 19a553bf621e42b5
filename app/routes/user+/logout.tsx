import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { toastHeader } from "~/services/platform/toast.server";
import { logOutHeaders } from "~/services/account/auth.server";
import { withEngine } from "~/services/engine/route.server";

/** Logout (a POST from the member menu): the engine revokes the session, the cookie forgets it. */
export function action(args: ActionFunctionArgs) {
  return withEngine(args, async ({ engine, request }) => {
    // Already revoked or expired is fine: the member is logged out either way.
    await engine
      .asMember()
      ?.member.logOut()
      .catch(() => null);
    // This cleared session cookie wins over a refreshed one the client collected.
    const headers = await logOutHeaders(request);
    headers.append("set-cookie", await toastHeader(request, { type: "info", key: "auth.logged_out" }));
    // Only the register page may be asked for (the demo member's "register your own account").
    const next = new URL(request.url).searchParams.get("next") === "register" ? "/user/register" : "/home/index";
    return redirect(next, { headers });
  });
}

export const loader = () => redirect("/home/index");
