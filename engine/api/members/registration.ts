import { randomBytes, randomInt } from "node:crypto";
import { hash } from "@node-rs/argon2";
import { endpoints } from "../../../protocol/endpoints";
import { ResultCode } from "../../../protocol/result-codes";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { engineText, requestLanguage } from "../engine-texts";
import { registerEndpoint } from "../register";
import { consumeCode, findMember } from "./codes";
import { destinationOf } from "./member-view";
import { phoneFitsArea } from "./phone-rules";

const INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Registration by e-mail or by phone with an area code, confirmed by a six-digit code. */
export function registerRegistrationRoutes(context: ApiContext): void {
  const { app, apiHead, db, services } = context;
  registerEndpoint(app, apiHead, endpoints.register, async ({ body, request }) => {
    const lang = requestLanguage(request.headers);
    const now = services.now();
    if (body.website) throw ApiError.badRequest(engineText(lang, "errors.honeypot"));
    if (body.accountType === "phone" && !(await phoneFitsArea(db, body.areaCode!, body.phone!))) {
      throw ApiError.badRequest(engineText(lang, "errors.phone_invalid"));
    }
    if (await findMember(db, body)) throw new ApiError(ResultCode.CONFLICT, engineText(lang, "errors.account_taken"));
    let invitedBy: string | null = null;
    if (body.inviteCode) {
      const inviter = await db.selectFrom("member").select("id").where("invite_code", "=", body.inviteCode.toUpperCase()).executeTakeFirst();
      if (!inviter) throw ApiError.badRequest(engineText(lang, "errors.invite_unknown"));
      invitedBy = inviter.id;
    }
    await consumeCode(db, { destination: destinationOf(body), purpose: "register", code: body.code, lang, now });

    const [passwordHash, tradeHash] = await Promise.all([hash(body.password), body.tradePassword ? hash(body.tradePassword) : null]);
    for (let attempt = 0; attempt < 5; attempt++) {
      const uid = String(randomInt(10_000_000, 99_999_999));
      const inviteCode = Array.from({ length: 8 }, () => INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]).join("");
      try {
        await db
          .insertInto("member")
          .values({
            uid,
            email: body.accountType === "email" ? body.email! : null,
            area_code: body.accountType === "phone" ? body.areaCode! : null,
            phone: body.accountType === "phone" ? body.phone! : null,
            password_hash: passwordHash,
            trade_password_hash: tradeHash,
            invite_code: inviteCode,
            invited_by: invitedBy,
            chat_key: randomBytes(16).toString("hex"),
            created_at: new Date(now),
            password_changed_at: new Date(now),
          })
          .execute();
        return { uid };
      } catch (error) {
        // A unique clash: the account (a concurrent registration) or a random uid/invite code.
        if (await findMember(db, body)) throw new ApiError(ResultCode.CONFLICT, engineText(lang, "errors.account_taken"));
        if (attempt === 4) throw error;
      }
    }
    throw new Error("unreachable");
  });
}
