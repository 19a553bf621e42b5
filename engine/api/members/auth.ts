import type { FastifyRequest } from "fastify";
import { endpoints } from "../../../protocol/endpoints";
import { ResultCode, STEP_ONE_LOGIN_MESSAGE } from "../../../protocol/result-codes";
import type { AttemptLimiter, BackoffLimiter } from "../../core/members/attempt-limiter";
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
    // OWASP's device cookies (decision 040): a browser that logged in to this account before is
    // limited on its own cookie only, so strangers' wrong passwords, which hold the account back
    // for every other client, do not lock its owner out. A forged or unknown cookie is no cookie.
    const device = body.deviceCookie ? await members.trustedDevice(body, body.deviceCookie, now) : null;
    const slots = takeLoginSlots(device === null ? strangerSlots(services, account, request.ip) : deviceSlots(services, device), now);
    const member = await members.checkPassword(body, body.password);
    if (!member) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.bad_credentials");
    if (member.frozen_at) {
      slots.giveBack(); // the right password: nothing was guessed
      throw Refusal.of(ResultCode.FORBIDDEN, "errors.account_frozen");
    }
    if (member.google_secret) {
      // Spec §8: "step 1 login successful" passes through to the form, which asks for the code.
      if (!body.googleCode) {
        slots.giveBack(); // the right password: step 2 asks for the code, nothing failed
        throw new ApiError(ResultCode.PASS_THROUGH, STEP_ONE_LOGIN_MESSAGE, "SECOND_FACTOR_REQUIRED");
      }
      if (!verifyTotp(member.google_secret, body.googleCode, now)) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.google_code_wrong");
    }
    slots.giveBack();
    // Only a stranger's success lifts the account's limits: the owner's device logging in must not
    // reset the back-off of whoever is guessing meanwhile.
    if (device === null) {
      services.limits.loginPerAccountAndAddress.reset(`login:${account}|${request.ip}`);
      services.limits.loginBackoffPerAccount.reset(`login:${account}`);
    }
    return members.openSession({
      memberId: member.id,
      deviceId: body.deviceId,
      userAgent: userAgentOf(request),
      ip: request.ip,
      now,
      demoMemberId: services.demoMemberId,
      lang: namedLanguage(request.headers),
      replacingDevice: device,
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

interface LoginSlot {
  limiter: AttemptLimiter | BackoffLimiter;
  key: string;
}

/** The limits of a login without a valid device cookie: per account and address, per address, per account. */
function strangerSlots(services: ApiServices, account: string, ip: string): LoginSlot[] {
  return [
    { limiter: services.limits.loginPerAccountAndAddress, key: `login:${account}|${ip}` },
    { limiter: services.limits.loginPerAddress, key: `login-ip:${ip}` },
    { limiter: services.limits.loginBackoffPerAccount, key: `login:${account}` },
  ];
}

/** The one limit of a login with the account's own device cookie: its failures lock out that cookie. */
function deviceSlots(services: ApiServices, deviceCookieId: string): LoginSlot[] {
  return [{ limiter: services.limits.loginPerDeviceCookie, key: `login-device:${deviceCookieId}` }];
}

/**
 * Each login attempt takes its place in every limit before the slow password check (atomic: no
 * burst of concurrent tries passes a check none has recorded yet). A wrong try keeps it; a good
 * one, or one another limit refused, gives it back.
 */
function takeLoginSlots(slots: LoginSlot[], now: number): { giveBack: () => void } {
  const taken: LoginSlot[] = [];
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
