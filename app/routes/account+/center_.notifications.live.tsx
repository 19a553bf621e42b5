import type { LoaderFunctionArgs } from "@remix-run/node";
import type { LiveNoticesAnswer } from "~/lib/notice-links";
import { loadLiveNotices } from "~/services/account/notices.server";
import { engineFor } from "~/services/engine/client.server";
import { sessionRefreshDue } from "~/services/engine/member-session.server";

const SIGNED_OUT: LiveNoticesAnswer = { signedOut: true };
const UNAVAILABLE: LiveNoticesAnswer = { unavailable: true };

/**
 * The live stack's read (decision 031): a ticket for the member's topic and what came after
 * `?after=`. A resource route (JSON, no page module: the stack reads it with a plain fetch,
 * decision 037). It is read in the background, so it never moves the page and never ends a
 * session:
 * - a read without a session answers "signed out" (never a redirect to the login page), a failed
 *   one "unavailable", and the stack waits for the next push or page;
 * - a read sent with a token another request of the member has just rotated finds no session:
 *   the cookie change that says so (cleared) is not passed on, or a background read would log the
 *   member out under their own request that holds the new token. A token this read refreshed is
 *   passed on, as everywhere (the engine rotated it);
 * - a read whose token is due for its refresh does not refresh it (it answers "unavailable"): two
 *   requests of one member refreshing at once race (decision 019), and a background read should
 *   not be one of them. The provider reads again after the member's next page or form (which
 *   refreshes), or after a quiet 30 s with `?force=1`.
 */
export async function loader(args: LoaderFunctionArgs) {
  // A token due for its refresh is left to the member's own requests (a page, a form); only the
  // provider's delayed retry (`force`) may refresh it, when the page has been quiet.
  if (!new URL(args.request.url).searchParams.has("force") && (await sessionRefreshDue(args.request)))
    return Response.json(UNAVAILABLE, { headers: { "cache-control": "no-store" } });
  const engine = await engineFor(args);
  const member = engine.asMember();
  if (!member) return Response.json(SIGNED_OUT, { headers: { "cache-control": "no-store" } });
  try {
    const { body, headers } = await loadLiveNotices(member);
    for (const cookie of engine.headers.getSetCookie()) headers.append("set-cookie", cookie);
    return Response.json(body satisfies LiveNoticesAnswer, { headers });
  } catch (error) {
    if (error instanceof Response && error.status >= 300 && error.status < 400) return Response.json(SIGNED_OUT, { headers: { "cache-control": "no-store" } });
    console.warn(`live notices unavailable: ${error instanceof Response ? `HTTP ${error.status}` : (error as Error).message}`);
    const headers = new Headers({ "cache-control": "no-store" });
    for (const cookie of engine.headers.getSetCookie()) headers.append("set-cookie", cookie);
    return Response.json(UNAVAILABLE, { headers });
  }
}
