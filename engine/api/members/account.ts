import { endpoints } from "../../../protocol/endpoints";
import { ResultCode } from "../../../protocol/result-codes";
import { Refusal } from "../../locales/refusal";
import { memberView } from "../../members/member-view";
import type { ApiContext } from "../context";
import { memberEndpoint } from "../member-endpoint";

/** The account center's calls (spec §7 "Auth and member"); each touches only the calling member's own rows. */
export function registerAccountRoutes(api: ApiContext): void {
  const { members } = api;
  const locked = { securityChange: true };

  memberEndpoint(api, endpoints.memberInfo, ({ memberId, demo }) => members.view(memberId, demo));
  memberEndpoint(api, endpoints.loginLog, ({ query, memberId, sessionId, demo }) =>
    members.loginLog({ memberId, sessionId }, { pageNo: query.pageNo ?? 1, pageSize: query.pageSize ?? 10 }, demo),
  );
  memberEndpoint(api, endpoints.devices, ({ memberId, sessionId, demo, now }) => members.devices({ memberId, sessionId }, demo, now));
  memberEndpoint(
    api,
    endpoints.deleteDevice,
    async ({ params, memberId, sessionId, demo, now }) => {
      await members.revokeDevice({ memberId, sessionId }, demo, params.deviceId, now);
      return null;
    },
    locked,
  );
  memberEndpoint(api, endpoints.updateDevice, async ({ body, memberId, sessionId, demo }) => {
    await members.renameDevice({ memberId, sessionId }, demo, body.id, body.name);
    return null;
  });
  memberEndpoint(
    api,
    endpoints.updatePassword,
    async ({ body, memberId, now }) => {
      await members.changePassword(memberId, body.oldPassword, body.newPassword, now);
      return null;
    },
    locked,
  );
  memberEndpoint(
    api,
    endpoints.tradePassword,
    async ({ body, memberId, now }) => {
      await members.setTradePassword(memberId, body.code, body.tradePassword, now);
      return null;
    },
    locked,
  );
  memberEndpoint(
    api,
    endpoints.antiCode,
    async ({ body, memberId, now }) => {
      await members.setAntiCode(memberId, body.code, body.antiCode, now);
      return null;
    },
    locked,
  );
  memberEndpoint(api, endpoints.bindAccount, async ({ body, memberId, demo, now }) => memberView(await members.bindAccount(memberId, body, now), demo), locked);
  memberEndpoint(api, endpoints.support, async ({ memberId, demo, now }) => {
    // The demo member is every visitor's: one visitor's request would mail the desk for all.
    if (demo) throw Refusal.of(ResultCode.FORBIDDEN, "errors.demo_support");
    await members.requestSupport(memberId, now);
    return { supported: 1 };
  });
}

/**
 * Google Authenticator (TOTP). Binding is two steps: a pending secret is shown (QR code), then
 * the member proves the app has it with a current code plus an e-mailed security code.
 */
export function registerGoogleRoutes(api: ApiContext): void {
  const { members } = api;
  memberEndpoint(api, endpoints.googleVerification, async ({ memberId }) => members.pendingGoogleSecret(memberId, await api.services.siteName()));
  memberEndpoint(
    api,
    endpoints.googleBindingOrReset,
    ({ params, query, memberId, now }) => members.bindOrResetGoogle(memberId, { binding: params.mode === "2", totp: params.googleCode, code: query.code }, now),
    { securityChange: true },
  );
}
