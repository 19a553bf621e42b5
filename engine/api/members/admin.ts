import { endpoints } from "../../../protocol/endpoints";
import type { MemberAdmin } from "../../members/member-admin";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { operatorEndpoint } from "../operator-endpoint";

/** The operators' member calls (issue 29): search, a member's page, freeze and unfreeze, the authenticator's reset. */
export function registerMemberAdminRoutes(api: ApiContext, admin: MemberAdmin): void {
  operatorEndpoint(api, endpoints.opsMembers, ({ query }) => (query.q ? admin.search(query.q) : admin.newest()));
  operatorEndpoint(api, endpoints.opsMember, async ({ params }) => {
    const profile = await admin.profile(params.uid);
    if (!profile) throw ApiError.notFound(`no member with uid ${params.uid}`);
    return profile;
  });
  operatorEndpoint(api, endpoints.opsMemberFreeze, ({ body, now, act }) => admin.setFrozen(body.uid, body.frozen, body.reason, now, act));
  operatorEndpoint(api, endpoints.opsMemberResetGoogle, ({ body, now, act }) => admin.resetSecondFactor(body.uid, body.reason, now, act));
}
