import { useRouteLoaderData } from "@remix-run/react";
import type { MemberInfo } from "#protocol/member";

/** The member profile the account-center layout loaded. */
export function useMemberInfo(): MemberInfo {
  const data = useRouteLoaderData("routes/account.center") as { info: MemberInfo } | undefined;
  if (!data) throw new Error("useMemberInfo used outside the account center");
  return data.info;
}
