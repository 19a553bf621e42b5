import { randomInt } from "node:crypto";
import { sql, type Kysely, type Selectable } from "kysely";
import type { CodePurpose } from "../../protocol/code-purposes";
import type { LanguageCode } from "../../protocol/languages";
import { ResultCode } from "../../protocol/result-codes";
import type { AttemptLimiter } from "../core/members/attempt-limiter";
import { MEMBER_RULES } from "../core/members/rules";
import { codeDigest, sixDigits } from "../core/members/secrets";
import { canonicalDecimal } from "../core/spot/order-history-view";
import { engineText } from "../locales/engine-texts";
import { Refusal } from "../locales/refusal";
import type { Database, MemberTable } from "../store/schema";

/** What sending codes needs of the engine's settings (the API's services hold them; tests change them). */
export interface CodeSettings {
  /** Minimum time between two codes to one destination for one purpose. */
  codeResendMs: number;
  siteName: () => Promise<string>;
  limits: { codeSendsPerAddress: AttemptLimiter };
}

/** The withdrawal a `withdraw` code confirms: its mail names it, and it confirms no other. */
export interface WithdrawalDetails {
  coin: string;
  network: string;
  amount: string;
  address: string;
  /** The destination tag (XRP), where the withdrawal has one: part of the destination as the address is. */
  memo?: string;
}

export interface CodeRequest {
  channel: "email" | "sms";
  destination: string;
  purpose: CodePurpose;
  /** The account the destination belongs to, if any (found by the caller's lookup). */
  owner: Selectable<MemberTable> | undefined;
  /** For `withdraw`: the withdrawal the code confirms. */
  withdrawal?: WithdrawalDetails;
  /** The calling member: bind, security and withdraw codes need one (the handler resolved it). */
  memberId: string | null;
  /** Whether the request carried a token: a reset for an unknown account then still sends. */
  hasToken: boolean;
  /** The client's address, for the per-address limit. */
  address: string;
  /** The language the code's message is written in. */
  lang: LanguageCode;
  now: number;
}

/**
 * Six-digit codes by e-mail and text message: sent through the outbox (a row the delivery worker
 * sends), checked and consumed once, with a resend pause and a cap on wrong tries.
 */
export class VerificationCodes {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: CodeSettings,
  ) {}

  /** Sends a code (or answers as if sent); answers how long until the next may be asked for. */
  async send(input: CodeRequest): Promise<{ resendAfterSeconds: number }> {
    const { settings } = this;
    const { now } = input;
    const existing = input.owner;
    const answer = { resendAfterSeconds: Math.ceil(settings.codeResendMs / 1000) };

    // Who may ask for what: registration codes go to new accounts, binding codes to accounts not
    // yet taken, security and withdrawal codes only to the logged-in member's own address.
    if (input.purpose === "register" && existing) throw Refusal.of(ResultCode.CONFLICT, "errors.account_taken");
    if (input.purpose === "bind" && existing) throw Refusal.of(ResultCode.CONFLICT, "errors.account_taken");
    if ((input.purpose === "security" || input.purpose === "withdraw") && existing?.id !== input.memberId)
      throw Refusal.of(ResultCode.FORBIDDEN, "errors.not_yours");
    const bound = boundPurpose(input.purpose, input.withdrawal);
    // Say nothing about whether the account exists: answer as if sent.
    if (input.purpose === "reset" && !existing && !input.hasToken) return answer;

    const addressKey = `code:${input.address}`;
    const addressVerdict = settings.limits.codeSendsPerAddress.check(addressKey, now);
    if (!addressVerdict.allowed) {
      throw Refusal.of(ResultCode.TOO_MANY_REQUESTS, "errors.too_many_attempts", { minutes: Math.ceil(addressVerdict.retryAfterMs / 60_000) });
    }
    const last = await this.db
      .selectFrom("verification_code")
      .select("created_at")
      .where("destination", "=", input.destination)
      .where("purpose", "=", input.purpose)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    const sinceLast = last ? now - new Date(last.created_at).getTime() : Infinity;
    if (sinceLast < settings.codeResendMs) {
      const seconds = Math.ceil((settings.codeResendMs - sinceLast) / 1000);
      throw Refusal.of(ResultCode.TOO_MANY_REQUESTS, "errors.code_wait", { seconds }).retryAfter(seconds);
    }
    settings.limits.codeSendsPerAddress.record(addressKey, now);

    const code = sixDigits(randomInt(0, 2 ** 32 - 1));
    const site = await settings.siteName();
    const { lang } = input;
    const w = input.withdrawal;
    const purposeLine =
      input.purpose === "withdraw" && w
        ? engineText(lang, "mail.purpose_withdraw", { amount: canonicalDecimal(w.amount), coin: w.coin, network: w.network, address: shortAddress(w.address) })
        : engineText(lang, `mail.purpose_${input.purpose as Exclude<CodePurpose, "withdraw">}`);
    const tag = w && input.purpose === "withdraw" ? tagOf(w) : null;
    const lines = [
      purposeLine,
      ...(tag !== null ? [engineText(lang, "mail.line_memo", { memo: tag })] : []),
      engineText(lang, "mail.code_body", { code, site }),
    ];
    if (existing?.anti_code) lines.unshift(engineText(lang, "mail.anti_code_line", { antiCode: existing.anti_code }));
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("verification_code")
        .values({
          destination: input.destination,
          purpose: input.purpose,
          code_hash: codeDigest(input.destination, bound, code),
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
    return answer;
  }

  /**
   * Checks and consumes a code in a transaction of its own (call it before, not inside, the
   * action's transaction): the latest unconsumed code for this destination and purpose, unexpired,
   * with fewer than 5 wrong tries. A wrong try is counted and committed before the refusal. A
   * `withdraw` code only matches the withdrawal it was sent for (`withdrawal`).
   */
  async consume(input: { destination: string; purpose: CodePurpose; code: string; now: number; withdrawal?: WithdrawalDetails }): Promise<void> {
    const bound = boundPurpose(input.purpose, input.withdrawal);
    const refusal = await this.db.transaction().execute(async (trx) => {
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
      if (!row || new Date(row.expires_at).getTime() <= input.now) return "errors.code_expired" as const;
      if (row.attempts >= MEMBER_RULES.codeMaxWrongTries) return "errors.code_locked" as const;
      if (row.code_hash !== codeDigest(input.destination, bound, input.code)) {
        await trx
          .updateTable("verification_code")
          .set({ attempts: sql`attempts + 1` })
          .where("id", "=", row.id)
          .execute();
        return input.purpose === "withdraw" ? ("errors.code_wrong_withdrawal" as const) : ("errors.code_wrong" as const);
      }
      await trx
        .updateTable("verification_code")
        .set({ consumed_at: new Date(input.now) })
        .where("id", "=", row.id)
        .execute();
      return null;
    });
    if (refusal) throw Refusal.of(ResultCode.BAD_REQUEST, refusal);
  }

  /** The dev mailbox: the last 20 messages the outbox holds for one address (operators only). */
  async sentTo(destination: string) {
    const rows = await this.db
      .selectFrom("outbox_message")
      .selectAll()
      .where("destination", "=", destination.trim().toLowerCase())
      .orderBy("id", "desc")
      .limit(20)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      channel: r.channel,
      destination: r.destination,
      subject: r.subject,
      body: r.body,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }
}

/**
 * What a code's digest binds it to: its purpose and, for a withdrawal, the coin, network, amount
 * (as a canonical decimal), address and destination tag (when there is one), so a code sent for
 * one withdrawal confirms no other: not even one to the same address with another tag, which on
 * XRP is another account behind that address. (Without a tag the digest is what it was before
 * tags were bound, so codes sent then still confirm their withdrawals.)
 */
function boundPurpose(purpose: CodePurpose, withdrawal: WithdrawalDetails | undefined): string {
  if (purpose !== "withdraw") return purpose;
  if (!withdrawal) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.code_wrong_withdrawal");
  const { coin, network, amount, address } = withdrawal;
  const tag = tagOf(withdrawal);
  return [purpose, coin, network, canonicalDecimal(amount), address.trim(), ...(tag !== null ? [tag] : [])].join("\u0000");
}

/** A withdrawal's destination tag as written, or null without one (an empty tag is none). */
function tagOf(withdrawal: WithdrawalDetails): string | null {
  const tag = withdrawal.memo?.trim() ?? "";
  return tag === "" ? null : tag;
}

/** An address as a code's mail shows it: its first 6 and last 4 characters. */
export function shortAddress(address: string): string {
  const text = address.trim();
  return text.length <= 12 ? text : `${text.slice(0, 6)}…${text.slice(-4)}`;
}
