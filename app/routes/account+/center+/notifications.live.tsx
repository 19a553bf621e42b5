import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { loadLiveNotices } from "~/services/account/notices.server";
import { withMember } from "~/services/engine/route.server";

/** The live stack's read (decision 031): a ticket for the member's topic and what came after `?after=`. JSON only. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine }) => {
    const { body, headers } = await loadLiveNotices(engine);
    return data(body, { headers });
  });
}
