import { hash } from "@node-rs/argon2";
import { endpoints } from "../../../protocol/endpoints";
import { ResultCode } from "../../../protocol/result-codes";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { engineText, requestLanguage } from "../engine-texts";
import { registerEndpoint } from "../register";
import { consumeCode, findMember } from "./codes";
import { destinationOf } from "./member-view";
import { isDemoMember } from "./require-member";
import { revokeSessions } from "./sessions";

/**
 * A forgotten password (issue 8): the member asks for a `reset` code (`open/send/email|sms`, which
 * answers the same whether or not the account exists), then sends it with a new password. Every
 * session of the account ends, so whoever had the old password is logged out.
 */
export function registerPasswordResetRoutes(context: ApiContext): void {
  const { app, apiHead, db, services } = context;
  registerEndpoint(app, apiHead, endpoints.resetPassword, async ({ body, request }) => {
    const lang = requestLanguage(request.headers);
    const now = services.now();
    const member = await findMember(db, body);
    // The shared demo login is public: resetting it would lock out the next visitor (decision 013).
    if (member && isDemoMember(services, member.id)) throw new ApiError(ResultCode.FORBIDDEN, engineText(lang, "errors.demo_locked"));
    // An unknown account has no code, so it is refused like a wrong code: nothing is revealed.
    await consumeCode(db, { destination: destinationOf(body), purpose: "reset", code: body.code, lang, now });
    if (!member) throw ApiError.badRequest(engineText(lang, "errors.code_expired"));
    const passwordHash = await hash(body.password);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("member").set({ password_hash: passwordHash, password_changed_at: new Date(now) }).where("id", "=", member.id).execute();
      await revokeSessions(trx, { memberId: member.id }, now);
    });
    // Slowed down by someone's wrong passwords? The new one works at once.
    services.limits.loginBackoffPerAccount.reset(`login:${destinationOf(body)}`);
    return null;
  });
}
