import { randomBytes } from "node:crypto";
import { endpoints } from "../../../protocol/endpoints";
import { ResultCode } from "../../../protocol/result-codes";
import { base32Encode, otpauthUri, verifyTotp } from "../../core/members/totp";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { engineText, requestLanguage } from "../engine-texts";
import { registerEndpoint } from "../register";
import { securityDestination } from "./account";
import { consumeCode } from "./codes";
import { refuseDemoMember, requireMember } from "./require-member";

/**
 * Google Authenticator (TOTP). Binding is two steps: a pending secret is shown (QR code), then
 * the member proves the app has it with a current code plus an e-mailed security code. The same
 * pending secret is shown until it is bound, so a page reload does not invalidate a scan.
 */
export function registerGoogleRoutes({ app, apiHead, db, services }: ApiContext): void {
  registerEndpoint(app, apiHead, endpoints.googleVerification, async ({ request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    const member = await db.selectFrom("member").selectAll().where("id", "=", memberId).executeTakeFirstOrThrow();
    if (member.google_secret) throw new ApiError(ResultCode.CONFLICT, engineText(requestLanguage(request.headers), "errors.google_bound"));
    let secret = member.google_pending_secret;
    if (!secret) {
      secret = base32Encode(randomBytes(20));
      await db.updateTable("member").set({ google_pending_secret: secret }).where("id", "=", memberId).execute();
    }
    const account = member.email ?? `+${member.area_code} ${member.phone}`;
    return { secret, otpauthUri: otpauthUri(await services.siteName(), account, secret) };
  });

  registerEndpoint(app, apiHead, endpoints.googleBindingOrReset, async ({ params, query, request }) => {
    const lang = requestLanguage(request.headers);
    const now = services.now();
    const { memberId } = await requireMember(db, request, now);
    refuseDemoMember(services, memberId, request);
    const member = await db.selectFrom("member").selectAll().where("id", "=", memberId).executeTakeFirstOrThrow();
    const binding = params.mode === "2";
    const secret = binding ? member.google_pending_secret : member.google_secret;
    if (!secret || (binding && member.google_secret)) {
      throw new ApiError(ResultCode.CONFLICT, engineText(lang, binding ? "errors.google_bound" : "errors.google_not_bound"));
    }
    if (!verifyTotp(secret, params.x, now)) throw ApiError.badRequest(engineText(lang, "errors.google_code_wrong"));
    await consumeCode(db, { destination: securityDestination(member), purpose: "security", code: query.code, lang, now });
    await db
      .updateTable("member")
      .set(binding ? { google_secret: secret, google_pending_secret: null } : { google_secret: null })
      .where("id", "=", memberId)
      .execute();
    return { googleBound: binding };
  });
}
