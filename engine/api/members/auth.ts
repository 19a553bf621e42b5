import { hash, verify } from "@node-rs/argon2";
import type { FastifyRequest } from "fastify";
import { endpoints } from "../../../protocol/endpoints";
import { ResultCode, STEP_ONE_LOGIN_MESSAGE } from "../../../protocol/result-codes";
import { verifyTotp } from "../../core/members/totp";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { engineText, requestLanguage } from "../engine-texts";
import { registerEndpoint } from "../register";
import { findMember } from "./codes";
import { destinationOf } from "./member-view";
import { requireMember } from "./require-member";
import { openSession, revokeSessions, rotateSession } from "./sessions";

/** A hash to verify against when the account does not exist, so both paths take as long. */
let decoyHash: Promise<string> | undefined;

/** Login, token refresh, logout and the second-factor probe (spec §7 "Auth and member"). */
export function registerAuthRoutes(context: ApiContext): void {
  const { app, apiHead, db, services } = context;

  registerEndpoint(app, apiHead, endpoints.token, async ({ body, request }) => {
    const lang = requestLanguage(request.headers);
    const now = services.now();
    if (body.grant_type === "refresh_token") {
      const granted = await db.transaction().execute((trx) => rotateSession(trx, body.refresh_token, now, services.demoMemberId));
      if (!granted) throw new ApiError(ResultCode.UNAUTHORIZED, engineText(lang, "errors.unauthorized"));
      return granted;
    }

    // Each attempt takes its place in every limit before the slow password check (atomic: no
    // burst of concurrent tries passes a check none has recorded yet). A wrong try keeps it; a
    // good one, or one another limit refused, gives it back.
    const account = destinationOf(body);
    const slots = [
      { limiter: services.limits.loginPerAccountAndAddress, key: `login:${account}|${request.ip}` },
      { limiter: services.limits.loginPerAddress, key: `login-ip:${request.ip}` },
      { limiter: services.limits.loginBackoffPerAccount, key: `login:${account}` },
    ];
    const taken: typeof slots = [];
    const giveBack = () => taken.forEach((slot) => slot.limiter.release(slot.key, now));
    for (const slot of slots) {
      const verdict = slot.limiter.acquire(slot.key, now);
      if (!verdict.allowed) {
        giveBack();
        throw new ApiError(ResultCode.TOO_MANY_REQUESTS, engineText(lang, "errors.too_many_attempts", { minutes: Math.ceil(verdict.retryAfterMs / 60_000) }));
      }
      taken.push(slot);
    }
    const fail = (key: "errors.bad_credentials" | "errors.google_code_wrong") => ApiError.badRequest(engineText(lang, key));

    const member = await findMember(db, body);
    decoyHash ??= hash("decoy password for timing");
    const passwordOk = await verify(member?.password_hash ?? (await decoyHash), body.password);
    if (!member || !passwordOk) throw fail("errors.bad_credentials");
    if (member.google_secret) {
      // Spec §8: "step 1 login successful" passes through to the form, which asks for the code.
      if (!body.googleCode) {
        giveBack(); // the right password: step 2 asks for the code, nothing failed
        throw new ApiError(ResultCode.PASS_THROUGH, STEP_ONE_LOGIN_MESSAGE);
      }
      if (!verifyTotp(member.google_secret, body.googleCode, now)) throw fail("errors.google_code_wrong");
    }
    giveBack();
    services.limits.loginPerAccountAndAddress.reset(`login:${account}|${request.ip}`);
    services.limits.loginBackoffPerAccount.reset(`login:${account}`);
    return db.transaction().execute((trx) =>
      openSession(trx, { memberId: member.id, deviceId: body.deviceId, userAgent: userAgentOf(request), ip: request.ip, now, demoMemberId: services.demoMemberId }),
    );
  });

  registerEndpoint(app, apiHead, endpoints.logout, async ({ request }) => {
    const { sessionId } = await requireMember(db, request, services.now());
    await revokeSessions(db, { sessionId }, services.now());
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.authentication, async ({ query }) => {
    const lookup = query.account.includes("@") ? { email: query.account.toLowerCase() } : { areaCode: query.areaCode, phone: query.account };
    const member = await findMember(db, lookup);
    return { google: Boolean(member?.google_secret) };
  });
}

export function userAgentOf(request: FastifyRequest): string {
  const value = request.headers["user-agent"];
  return (Array.isArray(value) ? value[0] : value) ?? "";
}
