import { randomInt } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { sql, type Kysely, type Transaction } from "kysely";
import type { CodePurpose } from "../../../protocol/code-purposes";
import { endpoints } from "../../../protocol/endpoints";
import type { LanguageCode } from "../../../protocol/languages";
import { ResultCode } from "../../../protocol/result-codes";
import { MEMBER_RULES } from "../../core/members/rules";
import { codeDigest, sixDigits } from "../../core/members/secrets";
import type { Database } from "../../store/schema";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { engineText, requestLanguage } from "../engine-texts";
import { registerEndpoint } from "../register";
import { phoneFitsArea } from "./phone-rules";
import { bearerToken, requireMember } from "./require-member";

type Db = Kysely<Database> | Transaction<Database>;

/** Routes that send six-digit codes by e-mail and text message (through the outbox). */
export function registerCodeRoutes(context: ApiContext): void {
  const { app, apiHead } = context;
  registerEndpoint(app, apiHead, endpoints.sendEmailCode, async ({ query, request }) => {
    return sendCode(context, request, { channel: "email", destination: query.email, purpose: query.type, lookup: { email: query.email } });
  });
  registerEndpoint(app, apiHead, endpoints.sendSmsCode, async ({ query, request }) => {
    if (!(await phoneFitsArea(context.db, query.areaCode, query.phone))) {
      throw ApiError.badRequest(engineText(requestLanguage(request.headers), "errors.phone_invalid"));
    }
    return sendCode(context, request, {
      channel: "sms",
      destination: `+${query.areaCode} ${query.phone}`,
      purpose: query.type,
      lookup: { areaCode: query.areaCode, phone: query.phone },
    });
  });
}

interface SendInput {
  channel: "email" | "sms";
  destination: string;
  purpose: CodePurpose;
  lookup: { email?: string; areaCode?: string; phone?: string };
}

async function sendCode({ db, services }: ApiContext, request: FastifyRequest, input: SendInput) {
  const lang = requestLanguage(request.headers);
  const now = services.now();
  const existing = await findMember(db, input.lookup);

  // Who may ask for what: registration codes go to new accounts, binding codes to accounts not
  // yet taken, security codes only to the logged-in member's own address.
  if (input.purpose === "register" && existing) throw new ApiError(ResultCode.CONFLICT, engineText(lang, "errors.account_taken"));
  if (input.purpose === "bind") {
    await requireMember(db, request, now);
    if (existing) throw new ApiError(ResultCode.CONFLICT, engineText(lang, "errors.account_taken"));
  }
  if (input.purpose === "security") {
    const { memberId } = await requireMember(db, request, now);
    if (existing?.id !== memberId) throw new ApiError(ResultCode.FORBIDDEN, engineText(lang, "errors.not_yours"));
  }
  if (input.purpose === "reset" && !existing && !bearerToken(request)) {
    // Say nothing about whether the account exists: answer as if sent.
    return { resendAfterSeconds: Math.ceil(services.codeResendMs / 1000) };
  }

  const addressKey = `code:${request.ip}`;
  const addressVerdict = services.limits.codeSendsPerAddress.check(addressKey, now);
  if (!addressVerdict.allowed) {
    throw new ApiError(ResultCode.TOO_MANY_REQUESTS, engineText(lang, "errors.too_many_attempts", { minutes: Math.ceil(addressVerdict.retryAfterMs / 60_000) }));
  }
  const last = await db
    .selectFrom("verification_code")
    .select("created_at")
    .where("destination", "=", input.destination)
    .where("purpose", "=", input.purpose)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const sinceLast = last ? now - new Date(last.created_at).getTime() : Infinity;
  if (sinceLast < services.codeResendMs) {
    const seconds = Math.ceil((services.codeResendMs - sinceLast) / 1000);
    throw new ApiError(ResultCode.TOO_MANY_REQUESTS, engineText(lang, "errors.code_wait", { seconds }));
  }
  services.limits.codeSendsPerAddress.record(addressKey, now);

  const code = sixDigits(randomInt(0, 2 ** 32 - 1));
  const site = await services.siteName();
  const lines = [
    engineText(lang, `mail.purpose_${input.purpose}`),
    engineText(lang, "mail.code_body", { code, site }),
  ];
  if (existing?.anti_code) lines.unshift(engineText(lang, "mail.anti_code_line", { antiCode: existing.anti_code }));
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("verification_code")
      .values({
        destination: input.destination,
        purpose: input.purpose,
        code_hash: codeDigest(input.destination, input.purpose, code),
        created_at: new Date(now),
        expires_at: new Date(now + MEMBER_RULES.codeTtlMs),
      })
      .execute();
    await trx
      .insertInto("outbox_message")
      .values({
        channel: input.channel,
        destination: input.destination,
        subject: engineText(lang, "mail.code_subject", { code, site }),
        body: lines.join("\n"),
        created_at: new Date(now),
      })
      .execute();
  });
  return { resendAfterSeconds: Math.ceil(services.codeResendMs / 1000) };
}

export async function findMember(db: Db, lookup: { email?: string; areaCode?: string; phone?: string }) {
  if (lookup.email) return db.selectFrom("member").selectAll().where("email", "=", lookup.email).executeTakeFirst();
  if (lookup.areaCode && lookup.phone) {
    return db.selectFrom("member").selectAll().where("area_code", "=", lookup.areaCode).where("phone", "=", lookup.phone).executeTakeFirst();
  }
  return undefined;
}

/**
 * Checks and consumes a code in a transaction of its own (call it before, not inside, the
 * action's transaction): the latest unconsumed code for this destination and purpose, unexpired,
 * with fewer than 5 wrong tries. A wrong try is counted and committed before the refusal.
 */
export async function consumeCode(
  db: Kysely<Database>,
  input: { destination: string; purpose: CodePurpose; code: string; lang: LanguageCode; now: number },
): Promise<void> {
  const refusal = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("verification_code")
      .select(["id", "code_hash", "attempts", "expires_at"])
      .where("destination", "=", input.destination)
      .where("purpose", "=", input.purpose)
      .where("consumed_at", "is", null)
      .orderBy("id", "desc")
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!row || new Date(row.expires_at).getTime() <= input.now) return engineText(input.lang, "errors.code_expired");
    if (row.attempts >= MEMBER_RULES.codeMaxWrongTries) return engineText(input.lang, "errors.code_locked");
    if (row.code_hash !== codeDigest(input.destination, input.purpose, input.code)) {
      await trx.updateTable("verification_code").set({ attempts: sql`attempts + 1` }).where("id", "=", row.id).execute();
      return engineText(input.lang, "errors.code_wrong");
    }
    await trx.updateTable("verification_code").set({ consumed_at: new Date(input.now) }).where("id", "=", row.id).execute();
    return null;
  });
  if (refusal) throw ApiError.badRequest(refusal);
}
