import type { FastifyRequest } from "fastify";
import { endpoints } from "../../../protocol/endpoints";
import { ResultCode, STEP_ONE_LOGIN_MESSAGE } from "../../../protocol/result-codes";
import { verifyTotp } from "../../core/members/totp";
import { namedLanguage } from "../../locales/engine-texts";
import { Refusal } from "../../locales/refusal";
import { destinationOf } from "../../members/member-service";
import { ApiError } from "../api-error";
import type { ApiContext, ApiServices } from "../context";
import { memberEndpoint } from "../member-endpoint";
import { registerEndpoint } from "../register";

/** Login, token refresh, logout and the second-factor probe (spec §7 "Auth and member"). */
export function registerAuthRoutes(api: ApiContext): void {
  const { app, apiHead, members, services } = api;

  registerEndpoint(app, apiHead, endpoints.token, async ({ body, request }) => {
    const now = services.now();
    if (body.grant_type === "refresh_token") {
      const granted = await members.refreshSession(body.refresh_token, now, services.demoMemberId, namedLanguage(request.headers));
      if (!granted) throw Refusal.of(ResultCode.UNAUTHORIZED, "errors.unauthorized");
      return granted;
    }
    const account = destinationOf(body);
    const slots = takeLoginSlots(services, account, request.ip, now);
    const member = await members.checkPassword(body, body.password);
    if (!member) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.bad_credentials");
    if (member.google_secret) {
      // Spec §8: "step 1 login successful" passes through to the form, which asks for the code.
      if (!body.googleCode) {
        slots.giveBack(); // the right password: step 2 asks for the code, nothing failed
        throw new ApiError(ResultCode.PASS_THROUGH, STEP_ONE_LOGIN_MESSAGE, "SECOND_FACTOR_REQUIRED");
      }
      if (!verifyTotp(member.google_secret, body.googleCode, now)) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.google_code_wrong");
    }
    slots.giveBack();
    services.limits.loginPerAccountAndAddress.reset(`login:${account}|${request.ip}`);
    services.limits.loginBackoffPerAccount.reset(`login:${account}`);
    return members.openSession({
      memberId: member.id,
      deviceId: body.deviceId,
      userAgent: userAgentOf(request),
      ip: request.ip,
      now,
      demoMemberId: services.demoMemberId,
      lang: namedLanguage(request.headers),
    });
  });

  memberEndpoint(api, endpoints.logout, async ({ sessionId, now }) => {
    await members.endSession(sessionId, now);
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.authentication, async ({ query }) => {
    const lookup = query.account.includes("@") ? { email: query.account.toLowerCase() } : { areaCode: query.areaCode, phone: query.account };
    const member = await members.findByAccount(lookup);
    return { google: Boolean(member?.google_secret) };
  });
}

/**
 * Each login attempt takes its place in every limit before the slow password check (atomic: no
 * burst of concurrent tries passes a check none has recorded yet). A wrong try keeps it; a good
 * one, or one another limit refused, gives it back.
 */
function takeLoginSlots(services: ApiServices, account: string, ip: string, now: number): { giveBack: () => void } {
  const slots = [
    { limiter: services.limits.loginPerAccountAndAddress, key: `login:${account}|${ip}` },
    { limiter: services.limits.loginPerAddress, key: `login-ip:${ip}` },
    { limiter: services.limits.loginBackoffPerAccount, key: `login:${account}` },
  ];
  const taken: typeof slots = [];
  const giveBack = () => taken.forEach((slot) => slot.limiter.release(slot.key, now));
  for (const slot of slots) {
    const verdict = slot.limiter.acquire(slot.key, now);
    if (!verdict.allowed) {
      giveBack();
      throw Refusal.of(ResultCode.TOO_MANY_REQUESTS, "errors.too_many_attempts", { minutes: Math.ceil(verdict.retryAfterMs / 60_000) });
    }
    taken.push(slot);
  }
  return { giveBack };
}

export function userAgentOf(request: FastifyRequest): string {
  const value = request.headers["user-agent"];
  return (Array.isArray(value) ? value[0] : value) ?? "";
}
