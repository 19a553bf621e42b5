import { useRouteLoaderData } from "@remix-run/react";
import type { MemberInfo } from "#protocol/member";

/** The account-center layout's route id (remix-flat-routes names a route by its file under app/). */
export const ACCOUNT_CENTER_ROUTE_ID = "routes/account+/center+/_layout";

/** The member profile the account-center layout loaded. */
export function useMemberInfo(): MemberInfo {
  const data = useRouteLoaderData(ACCOUNT_CENTER_ROUTE_ID) as { info: MemberInfo } | undefined;
  if (!data) throw new Error("useMemberInfo used outside the account center");
  return data.info;
}
