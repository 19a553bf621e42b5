import { endpoints } from "../../../protocol/endpoints";
import { ResultCode } from "../../../protocol/result-codes";
import { namedLanguage } from "../../locales/engine-texts";
import { Refusal } from "../../locales/refusal";
import { destinationOf } from "../../members/member-service";
import type { ApiContext } from "../context";
import { registerEndpoint } from "../register";

/**
 * Registration by e-mail or by phone with an area code, confirmed by a six-digit code; and a
 * forgotten password (issue 8): a `reset` code (`open/send/email|sms` answers the same whether or
 * not the account exists) sent back with a new password ends every session of the account.
 */
export function registerRegistrationRoutes({ app, apiHead, members, services }: ApiContext): void {
  registerEndpoint(app, apiHead, endpoints.register, async ({ body, request }) => {
    if (body.website) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.honeypot");
    return members.register(body, services.now(), namedLanguage(request.headers));
  });

  registerEndpoint(app, apiHead, endpoints.resetPassword, async ({ body }) => {
    await members.resetPassword(body, services.now(), services.demoMemberId);
    // Slowed down by someone's wrong passwords? The new one works at once.
    services.limits.loginBackoffPerAccount.reset(`login:${destinationOf(body)}`);
    return null;
  });
}
