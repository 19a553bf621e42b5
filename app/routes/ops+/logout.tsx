import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import { OPS_HEADERS, opsCall } from "~/services/ops/ops-engine.server";
import { opsSignOutCookie, opsToken } from "~/services/ops/ops-session.server";
import { detectLanguage } from "~/services/platform/i18n.server";

/** Signs the operator out: the engine ends the session, the browser forgets the cookie. */
export async function action({ request }: ActionFunctionArgs) {
  const token = await opsToken(request);
  if (token) await opsCall(request, await detectLanguage(request), token, endpoints.opsLogout, {}).catch(() => undefined);
  return redirect("/ops/login", { headers: { ...OPS_HEADERS, "set-cookie": await opsSignOutCookie(request) } });
}

export function loader() {
  return redirect("/ops", { headers: OPS_HEADERS });
}
