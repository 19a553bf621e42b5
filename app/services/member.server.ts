import { data } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import type { MemberInfo } from "#protocol/member";
import { callAsMember, requireMember, type MemberContext } from "./auth.server";
import { orUnavailable } from "./errors.server";

/** The logged-in member's full profile from the engine (spec §3 "User info"). */
export async function loadMemberInfo(request: Request): Promise<{ member: MemberContext; info: MemberInfo }> {
  const member = await requireMember(request);
  const info = await orUnavailable(request, callAsMember(request, member, endpoints.memberInfo));
  return { member, info };
}

/** A loader answer that also carries refreshed-token cookies. */
export function withMemberHeaders<T>(member: MemberContext, value: T) {
  return data(value, { headers: member.headers });
}
